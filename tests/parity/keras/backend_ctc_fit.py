"""The OCR tutorial's pattern: a layer adds keras.backend.ctc_batch_cost as its loss; fit, then
greedy ctc_decode of the softmax outputs."""

import numpy as np
import tensorflow as tf

K = tf.keras.backend
L = tf.keras.layers


class CTCLayer(L.Layer):
    def call(self, y_true, y_pred):
        batch = tf.cast(tf.shape(y_true)[0], "int64")
        input_len = tf.cast(tf.shape(y_pred)[1], "int64") * tf.ones((batch, 1), "int64")
        label_len = tf.cast(tf.shape(y_true)[1], "int64") * tf.ones((batch, 1), "int64")
        self.add_loss(tf.reduce_mean(K.ctc_batch_cost(y_true, y_pred, input_len, label_len)))
        return y_pred


x_in = tf.keras.Input((6, 4), name="x")
labels = tf.keras.Input((2,), name="label", dtype="float32")
probs = L.Dense(5, activation="softmax", kernel_initializer=tf.keras.initializers.Constant(0.1),
                bias_initializer=tf.keras.initializers.Constant([0.0, 0.1, 0.2, 0.3, 0.4]))(x_in)
out = CTCLayer()(labels, probs)
model = tf.keras.Model([x_in, labels], out)
model.compile(tf.keras.optimizers.Adam(0.1))
rng = np.random.RandomState(0)
x = rng.randn(8, 6, 4).astype("float32")
y = rng.randint(0, 4, (8, 2)).astype("float32")
h = model.fit({"x": x, "label": y}, epochs=3, batch_size=4, verbose=0, shuffle=False)
print([round(v, 4) for v in h.history["loss"]])
pred = tf.keras.Model(x_in, probs).predict(x, verbose=0)
dec, lp = K.ctc_decode(pred, np.full(8, 6))
print(dec[0].numpy().tolist())

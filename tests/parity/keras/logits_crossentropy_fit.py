"""Keras 3 computes cross-entropies from the logits behind sigmoid/softmax outputs; steps_per_epoch
continues the pass over arrays across epochs; evaluate's list with weighted metrics."""
import numpy as np
import tensorflow as tf

keras = tf.keras
z = tf.constant([[2.0, -1.0], [0.3, 4.0]])
y = tf.constant([[1.0, 0.0], [0.0, 1.0]])
print(keras.losses.binary_crossentropy(y, keras.activations.sigmoid(z)).numpy().tolist())
print(keras.losses.binary_crossentropy(y, z, from_logits=True).numpy().tolist())
print(keras.ops.binary_crossentropy(y, tf.constant([[0.9, 0.2], [0.3, 0.6]])).numpy().tolist())
print(keras.losses.binary_crossentropy([[1.0, 0.0]], [[0.0, 1.0]]).numpy().tolist())

x = np.array([[1.0], [2.0], [3.0], [4.0]], dtype=np.float32)
t = np.array([0, 1, 0, 1], dtype=np.float32)
m = keras.Sequential([keras.Input((1,)),
                      keras.layers.Dense(1, activation="sigmoid", kernel_initializer="zeros")])
m.compile(optimizer=keras.optimizers.SGD(0.1), loss="binary_crossentropy", metrics=["accuracy"])
print(m.fit(x, t, epochs=3, batch_size=4, verbose=0, shuffle=False).history["loss"])

xs = np.linspace(-1, 1, 24, dtype="float32").reshape(12, 2)
labels = (xs[:, 0] > 0).astype("int32")
c = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
    2, activation="softmax", kernel_initializer="ones",
    bias_initializer=keras.initializers.Constant([0.1, -0.1]))])
c.compile(optimizer=keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy", metrics=["accuracy"])


class Count(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print("epoch", epoch, "batches", self.seen)

    def on_epoch_begin(self, epoch, logs=None):
        self.seen = 0

    def on_train_batch_end(self, batch, logs=None):
        self.seen += 1


h = c.fit(xs, labels, batch_size=3, epochs=3, steps_per_epoch=3, verbose=0, shuffle=False,
          callbacks=[Count()])
print(h.history["loss"])
w = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
w.compile("sgd", "mse", metrics=["mae"], weighted_metrics=["mae"])
print(w.evaluate(xs, xs[:, :1], verbose=0, sample_weight=np.linspace(0, 1, 12)))
print(w.evaluate(xs, xs[:, :1], verbose=0, sample_weight=np.linspace(0, 1, 12), return_dict=True))

"""Keras 3's custom train_step over compile_metrics, compute_loss/add_loss without a compiled loss,
*_on_batch metric resets and a multi-output evaluate's list order."""
import numpy as np
import tensorflow as tf

x = np.arange(24, dtype="float32").reshape(12, 2) / 24
y = x.sum(1, keepdims=True) * 2 + 0.3


class GuideModel(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


class MaeModel(tf.keras.Model):
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        return tf.reduce_mean(tf.abs(y - y_pred))


def dense(cls):
    inputs = tf.keras.Input(shape=(2,))
    return cls(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs))


model = dense(GuideModel)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
h = model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False)
print({k: np.round(v, 4).tolist() for k, v in h.history.items()})
print([m.name for m in model.metrics])
r = model.evaluate(x, y, verbose=0, return_dict=True)
print({k: round(v, 4) for k, v in r.items()})

model = dense(MaeModel)
model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
h = model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
print({k: np.round(v, 4).tolist() for k, v in h.history.items()}, model.metrics_names)
print(round(model.evaluate(x, y, verbose=0), 4))


class ActivityRegularization(tf.keras.layers.Layer):
    def call(self, inputs):
        self.add_loss(1e-2 * tf.reduce_sum(inputs))
        return inputs


inputs = tf.keras.Input(shape=(2,))
hidden = ActivityRegularization()(tf.keras.layers.Dense(3, kernel_initializer="ones")(inputs))
model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(hidden))
model.compile(optimizer=tf.keras.optimizers.SGD(0.01))
h = model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
print({k: np.round(v, 4).tolist() for k, v in h.history.items()})

model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
print(np.round(model.test_on_batch(x[:4], y[:4]), 4).tolist())
print(np.round(model.train_on_batch(x[4:8], y[4:8]), 4).tolist())
print(round(model.evaluate(x, y, verbose=0)[0], 4))
print(np.round(model.train_on_batch(x[4:8], y[4:8], return_dict=True)["loss"], 4))

a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
hidden = tf.keras.layers.Dense(4, activation="relu")(tf.keras.layers.Concatenate()([a, b]))
reg = tf.keras.layers.Dense(1, name="reg")(hidden)
cls = tf.keras.layers.Dense(3, activation="softmax", name="cls")(hidden)
model = tf.keras.Model(inputs=[a, b], outputs=[reg, cls])
for layer in model.layers:
    layer.set_weights([np.sin(np.arange(w.size, dtype="float32")).reshape(w.shape)
                       for w in layer.get_weights()])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05),
              loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
              metrics={"reg": ["mae"], "cls": ["accuracy"]})
xa = np.cos(np.arange(30, dtype="float32")).reshape(10, 3)
xb = np.sin(np.arange(20, dtype="float32")).reshape(10, 2)
yr, yc = np.arange(10, dtype="float32").reshape(10, 1) / 10, np.arange(10) % 3
h = model.fit([xa, xb], [yr, yc], epochs=1, batch_size=5, verbose=0, shuffle=False)
print(list(h.history))
print(np.round(model.evaluate([xa, xb], [yr, yc], verbose=0), 4).tolist())

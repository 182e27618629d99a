"""Keras 3's fit/evaluate/predict inputs: bare x for label-less arrays, Python generators, batch_size
ignored for a dataset, steps_per_epoch on a finite dataset."""
import warnings

import numpy as np
import tensorflow as tf

warnings.simplefilter("ignore")
x = np.arange(40, dtype="float32").reshape(20, 2) / 40
y = np.ones((20, 1), "float32")
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)  # 5 batches


class Counter(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.counts = []

    def on_epoch_begin(self, epoch, logs=None):
        self.counts.append(0)

    def on_train_batch_end(self, batch, logs=None):
        self.counts[-1] += 1


def fresh():
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    return model


for steps, epochs in [(4, 3), (3, 4), (5, 2), (7, 2)]:
    counter = Counter()
    h = fresh().fit(ds, epochs=epochs, steps_per_epoch=steps, verbose=0, callbacks=[counter])
    print(steps, epochs, counter.counts, np.round(h.history["loss"], 4).tolist(), h.params["steps"])

model = fresh()
print(np.round(model.fit(ds, batch_size=3, verbose=0).history["loss"], 4).tolist())
print(np.round(model.evaluate(ds, batch_size=3, verbose=0), 4).tolist())


def finite(weights=False):
    for i in range(3):
        batch = (x[i * 4:(i + 1) * 4], y[i * 4:(i + 1) * 4])
        yield batch + (np.array([1, 0, 2, 1], "float32"),) if weights else batch


def endless():
    while True:
        yield from finite()


model = fresh()
counter = Counter()
h = model.fit(finite(), epochs=2, verbose=0, callbacks=[counter])
print(counter.counts, h.params["steps"], np.round(h.history["loss"], 4).tolist())
print(np.round(model.evaluate(finite(True), verbose=0), 4).tolist())
print(model.predict(((a,) for a, _ in finite()), verbose=0).shape)
h = model.fit(endless(), steps_per_epoch=2, epochs=2, verbose=0, validation_data=finite())
print({k: np.round(v, 4).tolist() for k, v in h.history.items()})
try:
    model.predict((a for a, _ in finite()), verbose=0)
except ValueError as e:
    print("ValueError", str(e)[:60])


class Bare(tf.keras.Model):
    def train_step(self, data):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((self(data) - 1.0) ** 2)
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        return {"loss": loss, "rows": tf.shape(data)[0]}

    def predict_step(self, data):
        return tf.shape(data)[:1]


inputs = tf.keras.Input((2,))
model = Bare(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs))
model.compile(tf.keras.optimizers.SGD(0.01))
h = model.fit(x, epochs=1, batch_size=8, verbose=0, shuffle=False)
print({k: np.round(v, 4).tolist() for k, v in h.history.items()})
print(model.predict(x, batch_size=8, verbose=0).tolist())

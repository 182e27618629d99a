"""fit's array shuffling under a global seed is TF's: Keras shuffles the row indices in a tf.data
function whose RandomShuffle kernel starts afresh each epoch, so every epoch (and every fit) gets
one order, seeded by the global seed and the graph's first op seed (0); the losses follow."""
import sys

import numpy as np
import tensorflow as tf


class Recorder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, _ = data
        tf.print(tf.cast(x[:, 0], tf.int32), summarize=-1, output_stream=sys.stdout)
        return {"rows": tf.reduce_sum(x)}


x = np.zeros((10, 2), np.float32)
x[:, 0] = np.arange(10)
y = np.zeros((10, 1), np.float32)
tf.keras.utils.set_random_seed(1)
model = Recorder()
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, batch_size=4, epochs=2, verbose=0)
print("a second fit")
model.fit(x, y, batch_size=4, epochs=1, verbose=0)
print("set_seed(3)")
tf.random.set_seed(3)
model.fit(x, y, batch_size=5, epochs=2, verbose=0)

print('shuffle="batch": rows shuffled within each batch, one kernel across the batches')
tf.random.set_seed(1)
model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle="batch")
model.fit(x, y, batch_size=3, epochs=1, verbose=0, shuffle="batch")

rng = np.random.default_rng(0)
features = rng.normal(size=(200, 5)).astype(np.float32)
targets = (features @ rng.normal(size=(5, 1)) + 0.1).astype(np.float32)
tf.keras.utils.set_random_seed(42)
net = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"),
                           tf.keras.layers.Dense(1)])
net.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
history = net.fit(features, targets, batch_size=32, epochs=4, verbose=0)
print(np.round(history.history["loss"], 4))
history = net.fit(features, targets, batch_size=16, epochs=2, verbose=0, validation_split=0.25)
print(np.round(history.history["loss"], 4), np.round(history.history["val_loss"], 4))

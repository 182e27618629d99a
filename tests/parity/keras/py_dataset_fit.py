"""fit/evaluate/predict on a keras.utils.PyDataset subclass: batches in index order, epoch hooks."""
import numpy as np
import tensorflow as tf


class Batches(tf.keras.utils.PyDataset):
    def __init__(self, x, y, batch_size, **kwargs):
        super().__init__(**kwargs)
        self.x, self.y, self.batch_size = x, y, batch_size
        self.ends = 0

    def __len__(self):
        return -(-len(self.x) // self.batch_size)

    def __getitem__(self, index):
        rows = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return self.x[rows], self.y[rows]

    def on_epoch_end(self):
        self.ends += 1


x = np.linspace(-1.0, 1.0, 20, dtype=np.float32).reshape(10, 2)
y = (x @ np.array([[1.0], [-2.0]], np.float32)).astype(np.float32)
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(tf.keras.optimizers.SGD(0.1), "mse")
batches = Batches(x, y, 4)
print(len(batches), batches.num_batches, batches.workers, batches.use_multiprocessing)
validation = Batches(x, y, 5)
history = model.fit(batches, epochs=3, verbose=0, validation_data=validation, shuffle=False)
print([round(v, 5) for v in history.history["loss"]])
print([round(v, 5) for v in history.history["val_loss"]])
print(batches.ends, validation.ends)
print(round(model.evaluate(Batches(x, y, 3), verbose=0), 5))
print(np.round(model.predict(Batches(x, y, 4), verbose=0)[:3, 0], 4))
print(isinstance(batches, tf.keras.utils.Sequence))

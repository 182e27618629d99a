"""The bar with other callbacks printing between epochs, and a user ProgbarLogger in the list."""
import numpy as np
import tensorflow as tf

x = np.linspace(0, 1, 16, dtype="float32").reshape(8, 2)
y = x[:, :1] * 2.0


class Printer(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print("end of epoch", epoch, sorted(logs))


model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, epochs=2, batch_size=8, callbacks=[Printer()])  # one batch: one drawing before the print
logger = tf.keras.callbacks.ProgbarLogger()
model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, callbacks=[logger])
try:
    tf.keras.callbacks.ProgbarLogger(count_mode="steps")
except TypeError as error:
    print(type(error).__name__)
bar = tf.keras.utils.Progbar(3)
for step in range(1, 4):
    bar.update(step, [("value", step / 10)])

"""A LambdaCallback sees every epoch; History keys."""
import numpy as np
import tensorflow as tf

seen = []
cb = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append((epoch, sorted(logs))))
model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
x = np.arange(4, dtype=np.float32)
h = model.fit(x, x, epochs=2, verbose=0, callbacks=[cb], validation_data=(x, x))
print(seen)
print(sorted(h.history), h.epoch)
print(h.params)

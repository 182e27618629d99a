"""fit a one-unit Dense layer with zero initial weights on y = 2x - 1."""
import numpy as np
import tensorflow as tf

xs = np.array([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0], dtype=np.float32)
ys = np.array([-3.0, -1.0, 1.0, 3.0, 5.0, 7.0], dtype=np.float32)
model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mean_squared_error")
history = model.fit(xs, ys, epochs=5, batch_size=6, shuffle=False, verbose=0)
print(sorted(history.history))
print([round(v, 4) for v in history.history["loss"]])
print(round(float(model.predict(np.array([10.0]), verbose=0)[0, 0]), 4))
print([np.round(w, 4).tolist() for w in model.get_weights()])

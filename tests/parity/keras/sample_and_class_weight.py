"""fit with sample_weight and class_weight changes the loss as weights say."""
import numpy as np
import tensorflow as tf

x = np.array([[1.0], [2.0], [3.0], [4.0]], dtype=np.float32)
y = np.array([0, 1, 0, 1], dtype=np.float32)

def make():
    m = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, activation="sigmoid",
                                                                          kernel_initializer="zeros")])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy")
    return m

h = make().fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False,
               sample_weight=np.array([1.0, 2.0, 1.0, 2.0]))
print([round(v, 5) for v in h.history["loss"]])
h = make().fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False, class_weight={0: 1.0, 1: 3.0})
print([round(v, 5) for v in h.history["loss"]])

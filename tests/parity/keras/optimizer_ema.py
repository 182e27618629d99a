"""Optimizer use_ema: Keras 3's moving average (first step copies), ema_overwrite_frequency,
finalize_variable_values, and fit ending with the averaged weights."""
import numpy as np
import tensorflow as tf

for kwargs in ({"use_ema": True}, {"use_ema": True, "ema_momentum": 0.5, "ema_overwrite_frequency": 2}):
    opt = tf.keras.optimizers.SGD(0.1, **kwargs)
    w = tf.Variable([1.0, -2.0])
    for _ in range(5):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w * 0.5 + w)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        print(np.round(w.numpy(), 5).tolist())
    opt.finalize_variable_values([w])
    config = opt.get_config()
    print("final", np.round(w.numpy(), 5).tolist(), config["use_ema"], config["ema_momentum"])
tf.keras.utils.set_random_seed(1)
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
model.compile(tf.keras.optimizers.Adam(0.1, use_ema=True, ema_momentum=0.9), "mse")
model.fit(np.ones((8, 2), np.float32), np.ones((8, 1), np.float32), epochs=2, batch_size=4, verbose=0,
          shuffle=False)
print(np.round(model.get_weights()[0].ravel(), 5).tolist())

"""Keras 3's Adafactor: factored second moments for rank >= 2 weights (rank 2 and 3), the plain
moment for vectors, relative steps, update clipping, a schedule, and its slot shapes."""
import numpy as np
import tensorflow as tf

keras = tf.keras
for kwargs in ({}, {"learning_rate": 0.5},
               {"learning_rate": 0.5, "relative_step": False, "clip_threshold": 0.5},
               {"learning_rate": keras.optimizers.schedules.ExponentialDecay(0.5, 2, 0.5)}):
    opt = keras.optimizers.Adafactor(**kwargs)
    k = tf.Variable(np.arange(6, dtype="float32").reshape(2, 3) - 2.5)
    b = tf.Variable([0.5, -1.0, 2.0])
    t = tf.Variable(np.arange(24, dtype="float32").reshape(2, 3, 4) / 7 - 1.0)
    for _ in range(4):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(k ** 3) + tf.reduce_sum(tf.sin(b)) + tf.reduce_sum(t ** 2 * 0.5)
        opt.apply_gradients(zip(tape.gradient(loss, [k, b, t]), [k, b, t]))
    print(np.round(k.numpy(), 5), np.round(b.numpy(), 5), np.round(t.numpy()[1, 2], 5))
    print(len(opt.variables), sorted(tuple(v.shape) for v in opt.variables))
print(sorted(opt.get_config().items())[:6])

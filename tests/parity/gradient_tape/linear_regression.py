"""The course's training loop: fit y = 3x + 2 with a tape and assign_sub."""
import numpy as np
import tensorflow as tf

xs = np.linspace(-1.0, 1.0, 20).astype(np.float32)
ys = 3.0 * xs + 2.0
w = tf.Variable(0.0)
b = tf.Variable(0.0)
for epoch in range(15):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(w * xs + b - ys))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.2 * dw)
    b.assign_sub(0.2 * db)
    if epoch % 5 == 4:
        print(f"epoch {epoch}: w={w.numpy():.4f} b={b.numpy():.4f} loss={loss.numpy():.5f}")

"""A Module-based model trained with a tape and plain SGD."""
import tensorflow as tf


class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(0.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b

x = tf.linspace(-1.0, 1.0, 11)
y = 2.0 * x - 1.0
model = Linear()
for _ in range(50):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    for v, g in zip(model.trainable_variables, grads):
        v.assign_sub(0.1 * g)
print(f"{model.w.numpy():.4f} {model.b.numpy():.4f} {loss.numpy():.6f}")

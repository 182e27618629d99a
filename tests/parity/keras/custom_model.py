"""A subclassed Model with call; a custom training step by hand."""
import tensorflow as tf


class TwoLayer(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(4, activation="relu", kernel_initializer="ones")
        self.out = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x):
        return self.out(self.hidden(x))

model = TwoLayer()
x = tf.constant([[1.0, 2.0]])
print(model(x))
opt = tf.keras.optimizers.SGD(0.01)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean((model(x) - 1.0) ** 2)
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
print(round(float(loss), 4), round(float(model(x)[0, 0]), 4))
print(len(model.trainable_variables), len(model.layers))

"""A subclassed model or layer that defines build() builds its sublayers there; nested Sequential shapes."""
import numpy as np
import tensorflow as tf


class Block(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2, kernel_initializer="ones")

    def build(self, input_shape):
        self.dense.build(input_shape)

    def call(self, inputs):
        return self.dense(inputs)


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.features = tf.keras.Sequential([tf.keras.layers.Dense(6, kernel_initializer="ones"),
                                             tf.keras.layers.Reshape((3, 2)),
                                             tf.keras.layers.Flatten()])
        self.block = Block()

    def call(self, inputs):
        return self.block(self.features(inputs))


block = Block()
block.build((None, 5))
print(block.built, block.dense.built, [tuple(w.shape) for w in block.weights])
net = Net()
print(net(np.ones((3, 4), "float32")).numpy().tolist())
net.summary()
print(net.features.compute_output_shape((None, 4)))

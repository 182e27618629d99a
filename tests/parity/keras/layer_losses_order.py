"""`Layer.losses` in Keras 3's order: losses added by calls (the layer's own, then its sublayers'
depth first), then the penalties of the trainable weights; a frozen layer's weights add none."""
import numpy as np
import tensorflow as tf

keras = tf.keras


class Block(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.first = keras.layers.Dense(2, kernel_initializer="ones",
                                        kernel_regularizer=keras.regularizers.L2(0.1),
                                        activity_regularizer=keras.regularizers.L1(0.01))
        self.second = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="ones",
                                         bias_regularizer=keras.regularizers.L1(0.5))

    def call(self, inputs):
        self.add_loss(tf.reduce_sum(inputs) * 0.001)
        return self.second(self.first(inputs))


x = np.arange(6, dtype="float32").reshape(2, 3)
block = Block(activity_regularizer=keras.regularizers.L2(0.001))
block(x)
print([round(float(loss), 5) for loss in block.losses])
block.second.trainable = False
print([round(float(loss), 5) for loss in block.losses])
block.trainable = False
print([round(float(loss), 5) for loss in block.losses])
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones",
                                                                kernel_regularizer="l2",
                                                                activity_regularizer="l1"),
                          keras.layers.Dense(1, kernel_initializer="ones", kernel_regularizer="l1")])
model(x)
print([round(float(loss), 4) for loss in model.losses])

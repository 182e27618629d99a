"""A custom Layer with add_weight in build."""
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", name="w")
        self.b = self.add_weight(shape=(self.units,), initializer=tf.keras.initializers.Constant(0.5),
                                 name="b", trainable=False)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

layer = Scale(3)
print(layer(tf.constant([[1.0, 2.0]])))
print([w.name for w in layer.trainable_weights], [w.name for w in layer.non_trainable_weights])
print(layer.name)

"""Keras 3's automatic names and reprs: inputs, symbolic tensors, layers, models."""
import numpy as np
import tensorflow as tf

tf.keras.backend.clear_session()
a = tf.keras.Input(shape=(3,))
b = tf.keras.Input(shape=(3,), name="named")
print(a)
print(b.name, b.shape, b.dtype)
dense = tf.keras.layers.Dense(2)
out = dense(a)
print(out)
model = tf.keras.Model(a, out)
print(model.name, model)
print(model.layers)
print(model.inputs)
print(model.outputs)
print(model.get_layer(index=0).name, model.get_layer("dense").output.shape)
print(tf.keras.Model(a, out).name, tf.keras.Model(a, out, name="mine").name)

seq = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)])
print(seq, seq.layers)
print(seq.inputs, seq.outputs)
print(tf.keras.Model(a, out).name)  # the Sequential used up a functional name
seq.add(tf.keras.layers.Dense(2))
print(tf.keras.Model(a, out).name)

lazy = tf.keras.Sequential([tf.keras.layers.Dense(2)])
print(lazy.built, lazy)
lazy(np.ones((5, 3), np.float32))
print(lazy.built, lazy.input_shape, tf.keras.Input((1,)).name)


class Tiny(tf.keras.Model):
    def call(self, x):
        return x


print(Tiny().name, Tiny().name, tf.keras.layers.BatchNormalization().name)
tf.keras.backend.clear_session()
print(tf.keras.Input((2,)).name, tf.keras.layers.Dense(1).name, tf.keras.Sequential().name)
try:
    tf.keras.utils.plot_model(seq)
except ImportError as e:
    print(type(e).__name__)

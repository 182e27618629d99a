"""keras.Variable, Keras weights' aggregation/synchronization strings, and Keras weights made in a
MirroredStrategy's scope (they stay Keras variables)."""
import numpy as np
import tensorflow as tf

keras = tf.keras

v = keras.Variable(1.0, name="v")
print(v, v.name, v.path, v.trainable, v.aggregation, v.synchronization)
print(keras.Variable("zeros", shape=(2, 3), name="w"))
print(keras.Variable(keras.initializers.Constant(2.0), shape=(2,), dtype="float64", name="u"))
print(keras.Variable(np.array([1, 2]), name="x"))
for bad in [dict(aggregation="bogus"), dict(synchronization="bogus"), dict(name="a/b")]:
    try:
        keras.Variable(1.0, **bad)
    except ValueError as e:
        print("ValueError", e)

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    dense = keras.layers.Dense(2, kernel_initializer="ones", name="dense")
    dense.build((None, 3))
    optimizer = keras.optimizers.Adam(0.01, name="adam")
    metric = keras.metrics.Mean(name="mean")
print(dense.kernel)
print(dense.kernel.path, dense.kernel.aggregation, dense.kernel.synchronization)
print(optimizer.iterations)
print(optimizer.iterations.aggregation, optimizer.learning_rate.aggregation)
print([(w.path, w.aggregation, w.synchronization, w.trainable) for w in metric.variables])


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight((input_shape[-1],), "ones", name="w")

    def call(self, x):
        return x * self.w


print(Scale()(np.ones((1, 3), "float32")))
try:
    keras.layers.Layer().add_weight("kernel", shape=(2,))
except ValueError as e:
    print("ValueError", e)

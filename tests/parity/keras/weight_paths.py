"""Keras 3 weight names and paths: layers, nested layers, models, metrics and optimizers."""
import tensorflow as tf


def show(weights):
    print([(w.name, w.path) for w in weights])


model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3),
                             tf.keras.layers.Dense(2, name="out"), tf.keras.layers.Dense(1)])
show(model.weights)
print([layer.name for layer in model.layers], model.name)

dense = tf.keras.layers.Dense(2, kernel_initializer="ones")
dense.build((None, 2))
print(dense.name)
show(dense.weights)
print(dense.kernel)
print(repr(dense.bias))


class Block(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = tf.keras.layers.Dense(2)

    def build(self, input_shape):
        self.w = self.add_weight(shape=(2,), initializer="ones", name="w")
        self.v = self.add_weight(shape=(), initializer="zeros")

    def call(self, x):
        return self.inner(x) * self.w + self.v


block = Block()
block(tf.ones((1, 3)))
show(block.weights)


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(2)
        self.d2 = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.d2(self.d1(x))


net = Net()
net(tf.ones((1, 3)))
print(net.name)
show(net.weights)

lazy = tf.keras.Sequential([tf.keras.layers.Dense(2), Block()])
lazy(tf.ones((1, 3)))
show(lazy.weights)

inputs = tf.keras.Input((3,))
functional = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="head")(inputs))
show(functional.weights)

bn = tf.keras.layers.BatchNormalization()
bn.build((None, 2))
show(bn.weights)
emb = tf.keras.layers.Embedding(5, 2)
emb.build((None,))
show(emb.weights)
conv = tf.keras.layers.Conv2D(2, 3)
conv.build((None, 5, 5, 1))
show(conv.weights)

mean = tf.keras.metrics.Mean()
mean.update_state([1.0, 2.0])
show(mean.variables)
print(mean.variables[0])

fit_model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
fit_model.compile(tf.keras.optimizers.Adam(), "mse")
fit_model.fit(tf.ones((4, 2)), tf.ones((4, 1)), verbose=0)
show(fit_model.weights)
print(fit_model.optimizer.name)
show(fit_model.optimizer.variables)
sgd = tf.keras.optimizers.SGD(momentum=0.9)
sgd.apply_gradients(zip([tf.ones((2, 1))], [fit_model.weights[0]]))
print(sgd.name)
show(sgd.variables)

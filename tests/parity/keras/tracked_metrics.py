import numpy as np
import tensorflow as tf

keras = tf.keras


class Tracked(keras.Model):
    """The VAE/GAN pattern without a `metrics` override: trackers held as attributes."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1, kernel_initializer="ones")
        self.loss_tracker = keras.metrics.Mean(name="my_loss")
        self.mae = keras.metrics.MeanAbsoluteError(name="my_mae")

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.mae.update_state(y, self(x))
        return {"my_loss": self.loss_tracker.result(), "my_mae": self.mae.result()}

    def test_step(self, data):
        x, y = data
        self.loss_tracker.update_state(tf.reduce_mean(tf.square(y - self(x))))
        return {"my_loss": self.loss_tracker.result()}


x = np.ones((8, 2), "float32")
y = np.zeros((8, 1), "float32")
m = Tracked()
print([t.name for t in m.metrics])
m.compile("sgd")
print(m.metrics_names)
h = m.fit(x, y, epochs=3, batch_size=4, verbose=0)  # the trackers reset every epoch
print({k: [round(float(v), 4) for v in vs] for k, vs in h.history.items()})
print({k: round(v, 4) for k, v in m.evaluate(x, y, verbose=0, return_dict=True).items()})
print({k: round(v, 4) for k, v in m.evaluate(x, y, verbose=0, return_dict=True).items()})


class Inner(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.seen = keras.metrics.Mean(name="inner_mean")
        self.sums = [keras.metrics.Sum(name="s1"), keras.metrics.Sum(name="s2")]

    def call(self, x):
        self.seen.update_state(x)
        return x


class Block(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.own = keras.metrics.Mean(name="block_mean")

    def call(self, x):
        return self.inner(x)


# a layer's metrics, and a model's: sublayers' metrics listed as Keras 3 lists them (a nested one twice)
inputs = keras.Input((2,))
outputs = keras.layers.Dense(1, kernel_initializer="ones")(Block()(inputs))
f = keras.Model(inputs, outputs)
print([t.name for t in f.layers[1].metrics])
print([t.name for t in f.metrics])
f.compile("sgd", "mse", metrics=["mae"])
print(f.metrics_names)
print({k: round(v, 4) for k, v in f.evaluate(x, y, verbose=0, return_dict=True).items()})
print([round(v, 4) for v in f.evaluate(x, y, verbose=0)])

# the metrics' own results (tensors), their Variables, and Keras 3's removed add_metric
print(f.get_metrics_result()["mae"])
print([v.name for v in f.metrics_variables][:4])
try:
    keras.layers.Dense(2).add_metric(1.0, name="m")
except NotImplementedError:
    print("NotImplementedError")

"""Metrics held in attributes belong to ``metrics`` (Keras 3): a layer's, then its sublayers'; a
model's after its compiled ones, so fit and evaluate reset and report them. Values observed under
TF 2.21 + Keras 3.15 (probes keras23/p15, p17, p18)."""

import numpy as np
import pytest

import companion as tf

keras = tf.keras
X = np.ones((8, 2), "float32")
Y = np.zeros((8, 1), "float32")


class _Tracked(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1, kernel_initializer="ones")
        self.loss_tracker = keras.metrics.Mean(name="my_loss")

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"my_loss": self.loss_tracker.result()}

    def test_step(self, data):
        x, y = data
        self.loss_tracker.update_state(tf.reduce_mean(tf.square(y - self(x))))
        return {"my_loss": self.loss_tracker.result()}


def test_a_tracker_attribute_is_reset_every_epoch_and_every_evaluate():
    model = _Tracked()
    assert [m.name for m in model.metrics] == ["my_loss"]  # before compile too
    model.compile("sgd")
    assert model.metrics_names == ["loss", "my_loss"]
    history = model.fit(X, Y, epochs=3, batch_size=4, verbose=0)
    # without the reset (companion before): 3.3542 and 3.0016, the running mean over all epochs
    assert history.history["my_loss"] == pytest.approx([3.7672, 2.9412, 2.2964], abs=1e-4)
    for _ in range(2):
        assert model.evaluate(X, Y, verbose=0, return_dict=True)["my_loss"] == pytest.approx(1.9037, abs=1e-4)


def test_overriding_metrics_with_super_lists_an_attribute_tracker_twice():
    class Override(_Tracked):
        @property
        def metrics(self):
            return [self.loss_tracker] + super().metrics

    model = Override()
    model.compile("sgd", "mse", metrics=["mae"])
    assert model.metrics_names == ["my_loss", "loss", "compile_metrics", "my_loss"]


class _Inner(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.seen = keras.metrics.Mean(name="inner_mean")
        self.sums = [keras.metrics.Sum(name="s1"), keras.metrics.Sum(name="s2")]

    def call(self, x):
        self.seen.update_state(x)
        return x


class _Block(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = _Inner()
        self.own = keras.metrics.Mean(name="block_mean")

    def call(self, x):
        return self.inner(x)


def test_sublayer_metrics_are_listed_as_keras_3_lists_them():
    inputs = keras.Input((2,))
    block = _Block()
    model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(block(inputs)))
    assert [m.name for m in block.metrics] == ["block_mean", "inner_mean", "s1", "s2"]
    # Keras 3 adds each flattened layer's `metrics`, so the inner layer's come twice
    names = ["block_mean", "inner_mean", "s1", "s2", "inner_mean", "s1", "s2"]
    assert [m.name for m in model.metrics] == names
    model.compile("sgd", "mse", metrics=["mae"])
    assert model.metrics_names == ["loss", "compile_metrics"] + names
    assert model.evaluate(X, Y, verbose=0, return_dict=True) == {
        "loss": 4.0, "mae": 2.0, "block_mean": 0.0, "inner_mean": 1.0, "s1": 0.0, "s2": 0.0}
    assert model.evaluate(X, Y, verbose=0) == [4.0, 2.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert len(model.weights) == 2  # metric variables are not weights


def test_a_metric_assigned_to_a_sublayer_later_is_seen():
    model = _Tracked()
    assert [m.name for m in model.metrics] == ["my_loss"]
    model.dense.extra = keras.metrics.Sum(name="late")  # after `metrics` was read (and cached)
    assert [m.name for m in model.metrics] == ["my_loss", "late"]


def test_nested_models_metrics_stay_with_them():
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.sub_metric = keras.metrics.Mean(name="sub_m")
            self.dense = keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    class Top(keras.Model):
        def __init__(self):
            super().__init__()
            self.sub = Sub()
            self.top = keras.metrics.Mean(name="top_m")

        def call(self, x):
            return self.sub(x)

    top = Top()
    assert [m.name for m in top.metrics] == ["top_m"]
    assert [m.name for m in top.sub.metrics] == ["sub_m"]


def test_metrics_variables_and_the_removed_add_metric():
    # TF 2.21 + Keras 3.15 (probe keras23/p24): two Variables per compiled mean metric; add_metric raises
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile("sgd", "mse", metrics=["mae"])
    model.fit(X, Y, verbose=0)
    assert [v.name for v in model.metrics_variables] == ["total", "count", "total", "count"]
    with pytest.raises(NotImplementedError, match="add_metric"):
        keras.layers.Dense(2).add_metric(1.0, name="m")

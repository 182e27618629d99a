"""Keras 3's metrics_names and the key order of return_dict results.

Expected values are what Keras 3.15 (TF 2.21) gives for the same model and data: metrics_names is
['loss', 'compile_metrics'] (the compiled metrics' container) or ['loss'] without metrics, and
dicts come back with their keys sorted while lists keep the loss first, then compile order.
"""

import numpy as np
import pytest

import companion as tf

X = np.array([[1.0, 1.0], [-1.0, -1.0], [0.5, -2.0], [2.0, 0.0]], dtype=np.float32)
Y = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)


def _model(compile_args=None):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(
        1, activation="sigmoid", kernel_initializer="ones")])
    if compile_args is not None:
        model.compile(optimizer="sgd", loss="binary_crossentropy", **compile_args)
    return model


@pytest.mark.parametrize(("compile_args", "names"), [
    (None, []),
    ({}, ["loss"]),
    ({"metrics": []}, ["loss", "compile_metrics"]),
    ({"weighted_metrics": ["mae"]}, ["loss", "compile_metrics"]),
    ({"metrics": ["accuracy", "mae"]}, ["loss", "compile_metrics"]),
])
def test_metrics_names_are_keras_3s(compile_args, names):
    model = _model(compile_args)
    assert model.metrics_names == names
    if compile_args is not None:
        model.evaluate(X, Y, verbose=0)
        assert model.metrics_names == names  # the same after the metrics are built


def test_dicts_are_sorted_and_lists_keep_compile_order():
    model = _model({"metrics": ["mae", tf.keras.metrics.AUC(name="auc")]})
    logs = model.evaluate(X, Y, verbose=0, return_dict=True)
    assert list(logs) == ["auc", "loss", "mae"]  # Keras 3.15
    values = model.evaluate(X, Y, verbose=0)
    assert values == pytest.approx([0.5205494, 0.2937958, 1.0], abs=1e-5)  # loss, mae, auc
    assert list(model.test_on_batch(X, Y, return_dict=True)) == ["auc", "loss", "mae"]
    assert list(model.train_on_batch(X, Y, return_dict=True)) == ["auc", "loss", "mae"]


def test_a_subclass_that_lists_its_metrics_names_them():
    class Tracked(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)
            self.tracker = tf.keras.metrics.Mean(name="my_loss")

        def call(self, x):
            return self.dense(x)

        @property
        def metrics(self):
            return [self.tracker]

    assert Tracked().metrics_names == ["my_loss"]


def test_model_metrics_hold_the_compile_metrics_container():
    """Keras 3.15: model.metrics is [Mean 'loss', CompileMetrics 'compile_metrics'] once compiled."""
    model = _model({"metrics": ["accuracy", "mae"]})
    assert [(type(m).__name__, m.name) for m in model.metrics] == [("Mean", "loss"),
                                                                   ("CompileMetrics", "compile_metrics")]
    model.fit(X, Y, epochs=1, verbose=0, batch_size=4)
    container = model.metrics[1]
    results = container.result()
    assert list(results) == ["accuracy", "mae"]
    assert [v.name for v in container.variables] == ["total", "count", "total", "count"]  # TF: 2 per metric
    logs = model.get_metrics_result()
    # Keras 3.15 returns the results as they are, tensors (probe keras23/p24)
    assert sorted(logs) == ["accuracy", "loss", "mae"]
    assert all(isinstance(v, tf.Tensor) for v in logs.values())
    assert float(logs["mae"]) == pytest.approx(float(results["mae"]))
    for metric in model.metrics:
        metric.reset_state()
    assert {k: float(v) for k, v in model.get_metrics_result().items()} == {"loss": 0.0, "accuracy": 0.0,
                                                                           "mae": 0.0}
    assert [m.name for m in _model({}).metrics] == ["loss"]  # no container without metrics


def test_evaluate_list_names_a_weighted_metric_twice_as_keras3():
    # TF 2.21 (probe p25): metrics=["mae"], weighted_metrics=["mae"] give the logs loss, mae and
    # weighted_mae, and evaluate's list [loss, mae, mae, weighted_mae]
    x = np.arange(12, dtype="float32").reshape(12, 1)
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse", metrics=["mae"], weighted_metrics=["mae"])
    logs = model.evaluate(x, x, verbose=0, sample_weight=np.ones(12), return_dict=True)
    assert list(logs) == ["loss", "mae", "weighted_mae"]
    flat = model.evaluate(x, x, verbose=0, sample_weight=np.ones(12))
    assert flat == [logs["loss"], logs["mae"], logs["mae"], logs["weighted_mae"]]

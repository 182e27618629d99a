"""companion.keras.metrics against NumPy, eagerly and inside companion.function, plus the course's F1Score."""

import numpy as np
import pytest

import companion as tf
from companion.keras import metrics


class F1Score(tf.keras.metrics.Metric):
    """The course's week-2 assignment metric, written as the course writes it."""

    def __init__(self, name="f1_score", **kwargs):
        super().__init__(name=name, **kwargs)
        self.tp = tf.Variable(0, dtype="int32")
        self.fp = tf.Variable(0, dtype="int32")
        self.tn = tf.Variable(0, dtype="int32")
        self.fn = tf.Variable(0, dtype="int32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        conf_matrix = tf.math.confusion_matrix(y_true, y_pred, num_classes=2)
        self.tn.assign_add(conf_matrix[0][0])
        self.tp.assign_add(conf_matrix[1][1])
        self.fp.assign_add(conf_matrix[0][1])
        self.fn.assign_add(conf_matrix[1][0])

    def result(self):
        if (self.tp + self.fp == 0):
            precision = 1.0
        else:
            precision = self.tp / (self.tp + self.fp)
        if (self.tp + self.fn == 0):
            recall = 1.0
        else:
            recall = self.tp / (self.tp + self.fn)
        f1_score = 2 * ((precision * recall) / (precision + recall))
        return f1_score

    def reset_states(self):
        self.tp.assign(0)
        self.tn.assign(0)
        self.fp.assign(0)
        self.fn.assign(0)


class WeightedF1Score(tf.keras.metrics.Metric):
    """The same counts kept in int `add_weight` variables."""

    def __init__(self, name="f1_score", **kwargs):
        super().__init__(name=name, **kwargs)
        self.tp = self.add_weight("tp", dtype="int32")
        self.fp = self.add_weight("fp", dtype="int32")
        self.fn = self.add_weight("fn", dtype="int32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        conf_matrix = tf.math.confusion_matrix(y_true, y_pred, num_classes=2)
        self.tp.assign_add(conf_matrix[1][1])
        self.fp.assign_add(conf_matrix[0][1])
        self.fn.assign_add(conf_matrix[1][0])

    def result(self):
        return 2 * self.tp / (2 * self.tp + self.fp + self.fn)


def test_course_f1_score_value():
    f1 = F1Score()
    f1.tp = tf.Variable(2, dtype="int32")
    f1.fp = tf.Variable(5, dtype="int32")
    f1.tn = tf.Variable(7, dtype="int32")
    f1.fn = tf.Variable(9, dtype="int32")
    result = f1.result()
    assert result.dtype == tf.float64
    np.testing.assert_allclose(result.numpy(), 0.2222222222222222, rtol=1e-15)


@pytest.mark.parametrize("cls", [F1Score, WeightedF1Score])
def test_int_state_metric_updates_eagerly_and_in_function(cls, rng):
    batches = [(rng.integers(0, 2, 8), rng.integers(0, 2, 8)) for _ in range(3)]
    eager, staged = cls(), cls()
    step = tf.function(lambda y, p: staged.update_state(y, p))
    for y, p in batches:
        eager.update_state(tf.constant(y), tf.constant(p))
        step(tf.constant(y), tf.constant(p))
    y, p = np.concatenate([b[0] for b in batches]), np.concatenate([b[1] for b in batches])
    tp, fp, fn = np.sum((y == 1) & (p == 1)), np.sum((y == 0) & (p == 1)), np.sum((y == 1) & (p == 0))
    for metric in (eager, staged):
        assert int(metric.tp.numpy()) == tp
        assert metric.tp.dtype == tf.int32
        np.testing.assert_allclose(metric.result(), 2 * tp / (2 * tp + fp + fn))
    staged.reset_states()
    assert all(int(v.numpy()) == 0 for v in staged.variables)


def test_reset_state_calls_an_overridden_reset_states():
    f1 = F1Score()
    f1.update_state([1, 0, 1], [1, 1, 1])
    f1.reset_state()
    assert [int(v.numpy()) for v in f1.variables] == [0, 0, 0, 0]


# -- built-in metrics vs NumPy --------------------------------------------------------------------

def _data(rng):
    labels = rng.integers(0, 3, 6)
    return {
        "labels": labels, "onehot": np.eye(3)[labels], "probs": rng.dirichlet(np.ones(3), 6),
        "binary": rng.integers(0, 2, (6, 1)).astype(float), "scores": rng.uniform(size=(6, 1)),
        "y": rng.normal(size=(6, 2)), "p": rng.normal(size=(6, 2)),
    }


CASES = [
    (metrics.Accuracy, {}, ("labels", "labels_pred"), lambda y, p: (y == p).astype(float)),
    (metrics.BinaryAccuracy, {}, ("binary", "scores"), lambda y, p: ((p > 0.5) == y).mean(-1)),
    (metrics.BinaryAccuracy, {"threshold": 0.7}, ("binary", "scores"),
     lambda y, p: ((p > 0.7) == y).mean(-1)),
    (metrics.CategoricalAccuracy, {}, ("onehot", "probs"),
     lambda y, p: (y.argmax(-1) == p.argmax(-1)).astype(float)),
    (metrics.SparseCategoricalAccuracy, {}, ("labels", "probs"),
     lambda y, p: (y == p.argmax(-1)).astype(float)),
    (metrics.MeanSquaredError, {}, ("y", "p"), lambda y, p: ((p - y) ** 2).mean(-1)),
    (metrics.MeanAbsoluteError, {}, ("y", "p"), lambda y, p: np.abs(p - y).mean(-1)),
]


def _inputs(data, names, rng):
    data["labels_pred"] = np.where(rng.random(6) < 0.5, data["labels"], 0)
    return data[names[0]], data[names[1]]


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(("cls", "kwargs", "names", "oracle"), CASES)
def test_metric_matches_numpy_over_several_batches(cls, kwargs, names, oracle, weighted, rng):
    batches = [_inputs(_data(rng), names, rng) for _ in range(3)]
    weights = [rng.uniform(size=6) if weighted else np.ones(6) for _ in batches]
    metric = cls(**kwargs)
    for (y, p), w in zip(batches, weights):
        metric.update_state(y, p, sample_weight=w if weighted else None)
    values = np.concatenate([oracle(y, p) for y, p in batches])
    w = np.concatenate(weights)
    np.testing.assert_allclose(metric.result(), np.sum(values * w) / np.sum(w), rtol=1e-5)
    metric.reset_state()
    assert float(metric.result()) == 0.0


def test_root_mean_squared_error(rng):
    y, p, w = rng.normal(size=(5, 2)), rng.normal(size=(5, 2)), rng.uniform(size=5)
    rmse = metrics.RootMeanSquaredError()
    rmse.update_state(y, p)
    np.testing.assert_allclose(rmse.result(), np.sqrt(np.mean((p - y) ** 2)), rtol=1e-6)
    rmse.reset_state()
    rmse.update_state(y, p, sample_weight=w)
    want = np.sqrt(np.sum((p - y) ** 2 * w[:, None]) / (2 * np.sum(w)))
    np.testing.assert_allclose(rmse.result(), want, rtol=1e-6)


def test_mean_and_sum(rng):
    values, w = rng.normal(size=(4, 3)), rng.uniform(size=4)
    mean, total = metrics.Mean(), metrics.Sum()
    mean.update_state(values[:2])
    mean.update_state(values[2:])
    np.testing.assert_allclose(mean.result(), values.mean(), rtol=1e-6)
    np.testing.assert_allclose(total(values, sample_weight=w), np.sum(values * w[:, None]), rtol=1e-5)
    weighted = metrics.Mean()
    want = np.sum(values * w[:, None]) / (3 * np.sum(w))
    np.testing.assert_allclose(weighted(values, sample_weight=w), want, rtol=1e-5)
    assert [v.name for v in mean.variables] == ["total", "count"]  # TF 2.21 (Keras 3)


def test_mean_with_lower_rank_weights_reduces_values_first(rng):
    values, w = rng.normal(size=(2, 3, 4)), rng.uniform(size=2)
    mean = metrics.Mean()
    mean.update_state(values, sample_weight=w)
    np.testing.assert_allclose(mean.result(), np.sum(values.mean((1, 2)) * w) / np.sum(w), rtol=1e-5)


def test_metrics_in_function_equal_eager(rng):
    batches = [(rng.integers(0, 3, 8), rng.dirichlet(np.ones(3), 8)) for _ in range(4)]
    eager = [metrics.SparseCategoricalAccuracy(), metrics.Mean()]
    staged = [metrics.SparseCategoricalAccuracy(), metrics.Mean()]

    @tf.function
    def step(y, p):
        staged[0].update_state(y, p)
        staged[1].update_state(tf.reduce_max(p, axis=-1))
        return staged[0].result()

    for y, p in batches:
        eager[0].update_state(y, p)
        eager[1].update_state(tf.reduce_max(tf.constant(p), axis=-1))
        running = step(tf.constant(y), tf.constant(p))
        np.testing.assert_allclose(running, eager[0].result(), rtol=1e-6)
    assert step.experimental_get_tracing_count() == 1
    for a, b in zip(eager, staged):
        np.testing.assert_allclose(b.result(), a.result(), rtol=1e-6)


def test_call_updates_then_returns_result():
    acc = metrics.Accuracy()
    assert float(acc([1, 2], [1, 0])) == 0.5
    assert float(acc([1, 2], [1, 2])) == 0.75
    acc.reset_states()
    assert float(acc.result()) == 0.0


def test_add_weight_shapes_dtypes_and_initializers():
    metric = metrics.Metric(name="m")
    v = metric.add_weight(name="v", shape=(2, 3), initializer="ones", dtype="int32")
    assert v.shape == (2, 3) and v.dtype == tf.int32 and not v.trainable
    with pytest.raises(TypeError, match="multiple values"):  # Keras 3: shape comes first
        metric.add_weight("v", shape=(2, 3))
    np.testing.assert_array_equal(v.numpy(), np.ones((2, 3)))
    metric.reset_state()
    np.testing.assert_array_equal(v.numpy(), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="initializer"):
        metric.add_weight(name="w", initializer="glorot")
    with pytest.raises(NotImplementedError, match="update_state"):
        metric.update_state(1.0)


def test_default_names_and_config():
    assert metrics.SparseCategoricalAccuracy().name == "sparse_categorical_accuracy"
    assert metrics.Mean().name == "mean"
    assert metrics.BinaryAccuracy(threshold=0.3).get_config()["threshold"] == 0.3
    again = metrics.deserialize(metrics.serialize(metrics.BinaryAccuracy(threshold=0.3)))
    assert again.get_config() == metrics.BinaryAccuracy(threshold=0.3).get_config()


def test_get_by_name():
    assert metrics.get("accuracy") is metrics.accuracy
    assert metrics.get("sparse_categorical_accuracy") is metrics.sparse_categorical_accuracy
    assert isinstance(metrics.get("Mean"), metrics.Mean)
    with pytest.raises(ValueError, match="Unknown metric function: 'acuracy'"):
        metrics.get("acuracy")


def test_bad_shapes_raise_clear_errors():
    with pytest.raises(ValueError, match=r"sparse_categorical_accuracy.*\(4, 3\)"):
        metrics.SparseCategoricalAccuracy().update_state(np.zeros((4, 3)), np.zeros((4, 3)))
    with pytest.raises(ValueError, match="categorical_accuracy.*sparse"):
        metrics.CategoricalAccuracy().update_state([0, 1], np.zeros((2, 3)))
    with pytest.raises(ValueError, match="sample_weight"):
        metrics.Mean().update_state(np.zeros((4, 3)), sample_weight=[1.0, 2.0])


# -- Precision, Recall, AUC --------------------------------------------------------------------------

def _np_counts(y, p, w, threshold):
    predicted, actual = p > threshold, y != 0
    return [np.sum(w * m) for m in (predicted & actual, predicted & ~actual, ~predicted & ~actual,
                                    ~predicted & actual)]


@pytest.mark.parametrize("thresholds", [None, 0.3, [0.2, 0.5, 0.8]])
def test_precision_and_recall_match_numpy(thresholds, rng):
    batches = [(rng.integers(0, 2, 10), rng.uniform(size=10), rng.uniform(size=10)) for _ in range(3)]
    precision, recall = metrics.Precision(thresholds), metrics.Recall(thresholds)
    for y, p, w in batches:
        precision.update_state(y, p, sample_weight=w)
        recall.update_state(y, p, sample_weight=w)
    y, p, w = (np.concatenate(parts) for parts in zip(*batches))
    ts = [0.5] if thresholds is None else np.atleast_1d(thresholds)
    counts = [_np_counts(y, p, w, t) for t in ts]
    want_p = [tp / (tp + fp) for tp, fp, _, _ in counts]
    want_r = [tp / (tp + fn) for tp, _, _, fn in counts]
    shape = () if np.ndim(thresholds) == 0 else (len(ts),)
    assert precision.result().shape == shape
    np.testing.assert_allclose(np.atleast_1d(precision.result()), want_p, rtol=1e-5)
    np.testing.assert_allclose(np.atleast_1d(recall.result()), want_r, rtol=1e-5)


def test_precision_class_id_and_no_positives():
    y = np.eye(3)[[0, 1, 1]]
    p = np.array([[0.1, 0.8, 0.1], [0.1, 0.2, 0.7], [0.3, 0.6, 0.1]])
    assert float(metrics.Precision(class_id=1)(y, p)) == 0.5
    assert float(metrics.Precision()([0, 1], [0.1, 0.2])) == 0.0


def test_auc_documented_example():
    # TensorFlow's AUC docstring: thresholds [-1e-7, 0.5, 1 + 1e-7] give 0.75.
    np.testing.assert_allclose(metrics.AUC(num_thresholds=3)([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]), 0.75)


def test_auc_roc_matches_numpy_trapezoid(rng):
    y, p = rng.integers(0, 2, 50), rng.uniform(size=50)
    auc = metrics.AUC(num_thresholds=50)
    auc.update_state(y[:25], p[:25])
    auc.update_state(y[25:], p[25:])
    ts = [-1e-7] + [(i + 1) / 49 for i in range(48)] + [1 + 1e-7]
    counts = np.array([_np_counts(y, p, np.ones(50), t) for t in ts])
    tp, fp, tn, fn = counts.T
    recall, fpr = tp / (tp + fn), fp / (fp + tn)
    want = np.sum((fpr[:-1] - fpr[1:]) * (recall[:-1] + recall[1:]) / 2)
    np.testing.assert_allclose(auc.result(), want, rtol=1e-5)
    staged = metrics.AUC(num_thresholds=50)
    step = tf.function(lambda a, b: staged.update_state(a, b))
    step(tf.constant(y[:25]), tf.constant(p[:25]))
    step(tf.constant(y[25:]), tf.constant(p[25:]))
    np.testing.assert_allclose(staged.result(), auc.result(), rtol=1e-6)


def test_auc_pr_of_a_perfect_ranking_is_one():
    np.testing.assert_allclose(metrics.AUC(curve="PR")([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]), 1.0, rtol=1e-5)


def test_labels_of_rank_one_beside_predictions_of_shape_n_by_1_count_every_example(rng):
    """Keras 3's squeeze_or_expand_to_same_rank: (n,) labels get a trailing axis, so accuracy over
    uneven batches is correct/total examples (not a mean of batch means)."""
    labels = rng.integers(0, 2, size=11)
    predicted = rng.integers(0, 2, size=(11, 1))
    metric = tf.keras.metrics.BinaryAccuracy()
    for start in (0, 4, 8):
        metric.update_state(labels[start:start + 4], predicted[start:start + 4])
    np.testing.assert_allclose(float(metric.result()), np.mean(labels == predicted[:, 0]), rtol=1e-6)
    np.testing.assert_allclose([float(v) for v in metric.variables], [np.sum(labels == predicted[:, 0]), 11])
    mse = tf.keras.metrics.MeanSquaredError()
    mse.update_state(labels[:4].astype(np.float32), predicted[:4].astype(np.float32) * 0.5)
    mse.update_state(labels[4:].astype(np.float32), predicted[4:].astype(np.float32) * 0.5)
    np.testing.assert_allclose(float(mse.result()), np.mean((labels - 0.5 * predicted[:, 0]) ** 2), rtol=1e-6)


def test_metric_functions_are_the_loss_functions_as_in_keras():
    names = ["binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy", "hinge",
             "squared_hinge", "categorical_hinge", "huber", "kld", "kullback_leibler_divergence", "logcosh",
             "mape", "msle", "poisson", "KLD", "MAPE", "MSLE"]
    for name in names:
        assert getattr(tf.keras.metrics, name) is getattr(tf.keras.losses, name), name
    y_true, y_pred = np.array([[1.0, 0.0]]), np.array([[0.7, 0.3]])
    expected = -np.mean(y_true * np.log(y_pred) + (1 - y_true) * np.log(1 - y_pred), axis=-1)
    got = tf.keras.metrics.binary_crossentropy(y_true, y_pred).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_precision_and_recall_top_k_count_only_each_rows_largest_predictions():
    y = np.array([[0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 0]], np.float32)
    p = np.array([[0.1, 0.5, 0.3, 0.9], [0.6, 0.2, 0.7, 0.1], [0.3, 0.4, 0.2, 0.8]], np.float32)
    for k in (1, 2, 3):
        top = np.argsort(-p, axis=1)[:, :k]
        predicted = np.zeros_like(y, dtype=bool)
        np.put_along_axis(predicted, top, True, axis=1)
        tp = (predicted & (y == 1)).sum()
        np.testing.assert_allclose(float(tf.keras.metrics.Precision(top_k=k)(y, p)), tp / predicted.sum(),
                                   rtol=1e-6)
        np.testing.assert_allclose(float(tf.keras.metrics.Recall(top_k=k)(y, p)), tp / (y == 1).sum(),
                                   rtol=1e-6)
    with pytest.raises(ValueError, match="top_k must be a positive int"):
        tf.keras.metrics.Precision(top_k=0)


def test_add_variable_and_dtype_name_as_keras3():
    # Keras 3.15 (TF 2.21): add_variable(shape, initializer, ...), Metric.dtype is the dtype's name
    class Total(metrics.Metric):
        def __init__(self, name="my_met", **kwargs):
            super().__init__(name=name, **kwargs)
            self.tot = self.add_variable(shape=(), initializer="zeros", name="tot")

        def update_state(self, y_true, y_pred, sample_weight=None):
            self.tot.assign_add(tf.reduce_sum(y_pred))

        def result(self):
            return self.tot

    metric = Total()
    metric.update_state(None, tf.ones(3))
    assert repr(metric.variables) == "[<Variable path=my_met/tot, shape=(), dtype=float32, value=3.0>]"
    assert metric.dtype == "float32" and metric.get_config() == {"name": "my_met", "dtype": "float32"}

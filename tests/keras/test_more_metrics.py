"""Top-k accuracies, confusion counts and the loss-valued metrics against NumPy; Keras 3's metric names."""

import numpy as np
import pytest

import companion as tf

M = tf.keras.metrics
RNG = np.random.default_rng(0)
LOGITS = RNG.normal(size=(6, 4)).astype(np.float32)
LABELS = RNG.integers(0, 4, 6)
ONE_HOT = np.eye(4, dtype=np.float32)[LABELS]
WEIGHTS = np.array([1, 0.5, 0, 2, 1, 1], np.float32)


def _in_top_k(scores, labels, k):  # ties at the k-th place count in (Keras 3, TF's in_top_k)
    at_label = scores[np.arange(len(labels)), labels]
    return (1 + np.sum(scores > at_label[:, None], axis=1) <= k).astype(np.float64)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_top_k_accuracies_match_numpy(k):
    expected = _in_top_k(LOGITS, LABELS, k)
    dense, sparse = M.TopKCategoricalAccuracy(k=k), M.SparseTopKCategoricalAccuracy(k=k)
    dense.update_state(ONE_HOT, LOGITS)
    sparse.update_state(LABELS[:, None], LOGITS, sample_weight=WEIGHTS)
    assert float(dense.result()) == pytest.approx(expected.mean())
    assert float(sparse.result()) == pytest.approx(np.sum(expected * WEIGHTS) / WEIGHTS.sum())
    np.testing.assert_array_equal(M.sparse_top_k_categorical_accuracy(LABELS, LOGITS, k=k).numpy(), expected)
    assert dense.name == "top_k_categorical_accuracy" and sparse.name == "sparse_top_k_categorical_accuracy"


def test_top_k_counts_ties_at_the_boundary_in():
    assert float(M.TopKCategoricalAccuracy(k=1)([[0, 1, 0]], [[0.5, 0.5, 0.0]])) == 1.0


@pytest.mark.parametrize("index, cls", list(enumerate([M.TruePositives, M.FalsePositives,
                                                        M.TrueNegatives, M.FalseNegatives])))
def test_confusion_counts_match_numpy(index, cls):
    y = RNG.integers(0, 2, (6, 3)).astype(np.float32)
    p = RNG.uniform(size=(6, 3)).astype(np.float32)
    w = np.broadcast_to(WEIGHTS[:, None], y.shape)

    def count(t):
        predicted, actual = p > t, y != 0
        cells = [predicted & actual, predicted & ~actual, ~predicted & ~actual, ~predicted & actual][index]
        return np.sum(np.where(cells, w, 0))

    one = cls()
    one.update_state(y, p, sample_weight=WEIGHTS[:, None])
    assert float(one.result()) == pytest.approx(count(0.5))
    several = cls(thresholds=[0.2, 0.7])
    several.update_state(y, p, sample_weight=WEIGHTS[:, None])
    np.testing.assert_allclose(several.result().numpy(), [count(0.2), count(0.7)])
    several.reset_state()
    assert several.result().numpy().tolist() == [0.0, 0.0]


def test_loss_valued_metrics_are_running_means_of_their_losses():
    y, p = RNG.uniform(0.1, 1, (6, 3)).astype(np.float32), RNG.uniform(0.1, 1, (6, 3)).astype(np.float32)
    pairs = [(M.KLDivergence, tf.keras.losses.kl_divergence), (M.Poisson, tf.keras.losses.poisson),
             (M.LogCoshError, tf.keras.losses.log_cosh), (M.Hinge, tf.keras.losses.hinge),
             (M.MeanAbsolutePercentageError, tf.keras.losses.mape),
             (M.MeanSquaredLogarithmicError, tf.keras.losses.msle),
             (M.SquaredHinge, tf.keras.losses.squared_hinge),
             (M.CategoricalHinge, tf.keras.losses.categorical_hinge),
             (M.BinaryCrossentropy, tf.keras.losses.binary_crossentropy),
             (M.CategoricalCrossentropy, tf.keras.losses.categorical_crossentropy)]
    for metric_class, loss in pairs:
        metric = metric_class()
        metric.update_state(y[:3], p[:3], sample_weight=WEIGHTS[:3])
        metric.update_state(y[3:], p[3:], sample_weight=WEIGHTS[3:])
        expected = np.sum(loss(y, p).numpy() * WEIGHTS) / WEIGHTS.sum()
        assert float(metric.result()) == pytest.approx(expected, rel=1e-5)
    cosine = M.CosineSimilarity()
    unit = lambda a: a / np.linalg.norm(a, axis=-1, keepdims=True)  # noqa: E731
    assert float(cosine(y, p)) == pytest.approx(np.mean(np.sum(unit(y) * unit(p), -1)), rel=1e-5)


def test_sparse_crossentropy_metric_from_logits_matches_numpy():
    log_probs = LOGITS - np.log(np.sum(np.exp(LOGITS), -1, keepdims=True))
    expected = -log_probs[np.arange(6), LABELS]
    metric = M.SparseCategoricalCrossentropy(from_logits=True)
    assert float(metric(LABELS, LOGITS)) == pytest.approx(expected.mean(), rel=1e-5)


def test_unnamed_metrics_get_numbered_names_as_in_keras_3():
    first, second = M.AUC(), M.AUC()  # 'auc' and 'auc_1' in a fresh process (the counters are global)
    assert first.name.startswith("auc") and second.name.startswith("auc_") and second.name != first.name
    assert M.Mean().name == M.Mean().name == "mean" and M.Sum().name == "sum"
    a, b = M.TruePositives(), M.TruePositives()
    assert a.name.startswith("true_positives") and b.name != a.name
    assert M.TruePositives(name="tp").name == "tp"


def test_mean_iou_as_tensorflow_counts_it():
    metric = M.MeanIoU(num_classes=2)
    metric.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    assert float(metric.result()) == pytest.approx(1 / 3) and metric.name.startswith("mean_io_u")
    # Keras counts in int64: fractional sample weights truncate to 0 (TF 2.21 gives these numbers)
    metric = M.MeanIoU(num_classes=3)
    metric.update_state([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=[0.3, 0.3, 0.3, 0.1])
    assert float(metric.result()) == 0.0
    metric.update_state([2, 2], [2, 0])
    assert float(metric.result()) == pytest.approx(0.25)
    assert metric.total_cm.numpy().tolist() == [[0, 0, 0], [0, 0, 0], [1, 0, 1]]
    ignoring = M.MeanIoU(num_classes=3, ignore_class=0)
    ignoring.update_state([0, 1, 2, 2], [1, 1, 2, 0])
    assert float(ignoring.result()) == pytest.approx(0.5)
    dense = M.MeanIoU(num_classes=3, sparse_y_pred=False)
    dense.update_state([0, 2], [[0.9, 0.1, 0.0], [0.1, 0.2, 0.7]])
    assert float(dense.result()) == 1.0
    dense.reset_state()
    assert float(dense.result()) == 0.0


def test_iou_family_matches_a_numpy_confusion_matrix():
    y_true = np.array([0, 1, 2, 2, 1, 0, 2])
    y_pred = np.array([0, 2, 2, 1, 1, 0, 0])
    matrix = np.zeros((3, 3))
    np.add.at(matrix, (y_true, y_pred), 1)
    tp = np.diag(matrix)
    union = matrix.sum(0) + matrix.sum(1) - tp
    per_class = tp / union
    metric = tf.keras.metrics.IoU(num_classes=3, target_class_ids=[1, 2])
    assert float(metric(y_true, y_pred)) == pytest.approx(per_class[[1, 2]].mean(), rel=1e-5)
    onehot = tf.keras.metrics.OneHotIoU(num_classes=3, target_class_ids=[0])
    assert float(onehot(np.eye(3)[y_true], np.eye(3)[y_pred] * 0.8)) == pytest.approx(per_class[0], rel=1e-5)
    mean = tf.keras.metrics.OneHotMeanIoU(num_classes=3)
    assert float(mean(np.eye(3)[y_true], np.eye(3)[y_pred])) == pytest.approx(per_class.mean(), rel=1e-5)
    binary = tf.keras.metrics.BinaryIoU(target_class_ids=[1], threshold=0.3)
    scores = np.array([0.1, 0.35, 0.2, 0.9])
    labels = np.array([0, 1, 1, 1])
    predicted = scores >= 0.3
    expected = (predicted & (labels == 1)).sum() / (predicted | (labels == 1)).sum()
    assert float(binary(labels, scores)) == pytest.approx(expected, rel=1e-5)
    with pytest.raises(ValueError, match="out of range"):
        tf.keras.metrics.IoU(num_classes=2, target_class_ids=[2])


def test_correlation_metrics_against_numpy():
    y_true = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 0.0, 5.0]], np.float32)
    y_pred = np.array([[2.0, 4.0, 7.0, 7.5], [1.0, 1.5, 0.5, 3.0]], np.float32)
    pearson = [np.corrcoef(t, p)[0, 1] for t, p in zip(y_true, y_pred)]
    got = tf.keras.metrics.pearson_correlation(y_true, y_pred).numpy()
    np.testing.assert_allclose(got, pearson, rtol=1e-5)
    metric = tf.keras.metrics.PearsonCorrelation()
    assert float(metric(y_true, y_pred)) == pytest.approx(np.mean(pearson), rel=1e-5)
    t_mean, p_mean = y_true.mean(-1, keepdims=True), y_pred.mean(-1, keepdims=True)
    norm = y_true.var(-1, keepdims=True) + y_pred.var(-1, keepdims=True) + (t_mean - p_mean) ** 2
    keras_formula = np.mean(2 * (y_true - p_mean) * (y_pred - p_mean) / (norm + 1e-7), axis=-1)
    got = tf.keras.metrics.concordance_correlation(y_true, y_pred).numpy()
    np.testing.assert_allclose(got, keras_formula, rtol=1e-5)

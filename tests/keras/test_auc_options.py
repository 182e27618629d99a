"""AUC's options against scikit-learn and NumPy: multi-label averages, logits, Riemann sums."""

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import companion as tf

RNG = np.random.default_rng(4)
Y = (RNG.random((400, 3)) > 0.5).astype(np.float32)
P = np.clip(0.3 * Y + 0.7 * RNG.random((400, 3)), 0, 1).astype(np.float32)


def test_multi_label_auc_averages_per_label_rocs_like_sklearn():
    metric = tf.keras.metrics.AUC(num_thresholds=2000, multi_label=True)
    metric.update_state(Y, P)
    assert metric.true_positives.shape == (2000, 3)
    np.testing.assert_allclose(float(metric.result()), roc_auc_score(Y, P, average="macro"), atol=2e-3)
    weighted = tf.keras.metrics.AUC(num_thresholds=2000, multi_label=True, label_weights=[1.0, 3.0, 0.0])
    weighted.update_state(Y, P)
    per_label = [roc_auc_score(Y[:, i], P[:, i]) for i in range(3)]
    np.testing.assert_allclose(float(weighted.result()), (per_label[0] + 3 * per_label[1]) / 4, atol=2e-3)


def test_from_logits_applies_the_sigmoid_first():
    logits = (P[:, 0] - 0.5) * 6
    direct = tf.keras.metrics.AUC(from_logits=True)
    direct.update_state(Y[:, 0], logits)
    squashed = tf.keras.metrics.AUC()
    squashed.update_state(Y[:, 0], 1 / (1 + np.exp(-logits)))
    np.testing.assert_allclose(float(direct.result()), float(squashed.result()), rtol=1e-6)


@pytest.mark.parametrize("method,combine", [("minoring", np.minimum), ("majoring", np.maximum)])
def test_riemann_sums_bound_the_interpolated_area(method, combine):
    metric = tf.keras.metrics.AUC(num_thresholds=21, summation_method=method)
    metric.update_state(Y[:, 1], P[:, 1])
    thresholds = np.array([-1e-7] + [(i + 1) / 20 for i in range(19)] + [1 + 1e-7])
    predicted = P[:, 1][None] > thresholds[:, None]
    actual = Y[:, 1][None] == 1
    tp, fp = (predicted & actual).sum(1), (predicted & ~actual).sum(1)
    fn, tn = (~predicted & actual).sum(1), (~predicted & ~actual).sum(1)
    recall, fpr = tp / (tp + fn), fp / (fp + tn)
    expected = np.sum((fpr[:-1] - fpr[1:]) * combine(recall[:-1], recall[1:]))
    np.testing.assert_allclose(float(metric.result()), expected, rtol=1e-5)


def test_explicit_thresholds_and_bad_options():
    metric = tf.keras.metrics.AUC(thresholds=[0.7, 0.2, 0.5])
    assert metric.num_thresholds == 5 and metric.get_config()["thresholds"] == [0.2, 0.5, 0.7]
    with pytest.raises(ValueError, match="AUCCurve"):
        tf.keras.metrics.AUC(curve="XX")
    with pytest.raises(ValueError, match="only when `multi_label` is True"):
        tf.keras.metrics.AUC(num_labels=3)
    with pytest.raises(ValueError, match="rank 2"):
        tf.keras.metrics.AUC(multi_label=True).update_state(Y[:, 0], P[:, 0])

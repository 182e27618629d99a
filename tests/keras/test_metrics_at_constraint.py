"""SensitivityAtSpecificity & co. against a NumPy computation of their definitions."""

import numpy as np
import pytest

import companion as tf


def _numpy_best(y, p, w, thresholds, constrained_of, dependent_of, floor):
    best = 0.0
    for t in thresholds:
        predicted = p > t
        tp = np.sum(w * (predicted & (y == 1)))
        fp = np.sum(w * (predicted & (y == 0)))
        tn = np.sum(w * (~predicted & (y == 0)))
        fn = np.sum(w * (~predicted & (y == 1)))
        rates = {"sens": tp / (tp + fn) if tp + fn else 0.0, "spec": tn / (tn + fp) if tn + fp else 0.0,
                 "prec": tp / (tp + fp) if tp + fp else 0.0}
        if rates[constrained_of] >= floor:
            best = max(best, rates[dependent_of])
    return best


@pytest.mark.parametrize("metric,constrained,dependent,floor", [
    (tf.keras.metrics.SensitivityAtSpecificity, "spec", "sens", 0.6),
    (tf.keras.metrics.SpecificityAtSensitivity, "sens", "spec", 0.7),
    (tf.keras.metrics.PrecisionAtRecall, "sens", "prec", 0.5),
    (tf.keras.metrics.RecallAtPrecision, "prec", "sens", 0.55),
])
def test_matches_the_definition_over_keras_thresholds(metric, constrained, dependent, floor):
    rng = np.random.default_rng(1)
    y = (rng.random(300) > 0.5).astype(np.float32)
    p = np.clip(0.35 * y + 0.65 * rng.random(300), 0, 1).astype(np.float32)
    w = rng.random(300).astype(np.float32)
    m = metric(floor, num_thresholds=11)
    m.update_state(y, p, sample_weight=w)
    thresholds = [0.0] + [(i + 1) / 10 for i in range(9)] + [1.0]
    expected = _numpy_best(y, p, w, thresholds, constrained, dependent, floor)
    np.testing.assert_allclose(float(m.result()), expected, rtol=1e-5)
    m.reset_state()
    assert float(m.result()) == 0.0


def test_arguments_are_checked():
    with pytest.raises(ValueError, match=r"`precision` must be in the range \[0, 1\]"):
        tf.keras.metrics.RecallAtPrecision(1.5)
    with pytest.raises(ValueError, match="num_thresholds"):
        tf.keras.metrics.PrecisionAtRecall(0.5, num_thresholds=0)
    config = tf.keras.metrics.SpecificityAtSensitivity(0.3, num_thresholds=5, class_id=2).get_config()
    assert config["sensitivity"] == 0.3 and config["num_thresholds"] == 5 and config["class_id"] == 2

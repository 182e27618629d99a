"""F1Score/FBetaScore and R2Score against scikit-learn's f1_score, fbeta_score and r2_score."""

import numpy as np
import pytest
from sklearn import metrics as sk

import companion as tf

RNG = np.random.default_rng(4)
LABELS = RNG.integers(0, 3, 40)
Y_TRUE = np.eye(3, dtype=np.float32)[LABELS]
Y_PRED = RNG.random((40, 3)).astype(np.float32)
PREDICTED = Y_PRED.argmax(-1)


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
def test_f1_of_argmax_predictions_matches_sklearn(average):
    metric = tf.keras.metrics.F1Score(average=average)
    metric.update_state(Y_TRUE[:25], Y_PRED[:25])
    metric.update_state(Y_TRUE[25:], Y_PRED[25:])  # counts accumulate over batches
    expected = sk.f1_score(LABELS, PREDICTED, average=average, labels=[0, 1, 2], zero_division=0)
    np.testing.assert_allclose(metric.result().numpy(), expected, rtol=1e-5)


def test_fbeta_with_a_threshold_and_weights_matches_sklearn_per_label():
    labels = (RNG.random((30, 4)) > 0.5).astype(np.float32)
    scores = RNG.random((30, 4)).astype(np.float32)
    weights = RNG.random(30).astype(np.float32)
    metric = tf.keras.metrics.FBetaScore(beta=2.0, threshold=0.5)
    metric.update_state(labels, scores, sample_weight=weights)
    expected = sk.fbeta_score(labels, scores > 0.5, beta=2.0, average=None, sample_weight=weights)
    np.testing.assert_allclose(metric.result().numpy(), expected, rtol=1e-4)
    metric.reset_state()
    assert np.all(metric.true_positives.numpy() == 0)
    with pytest.raises(ValueError, match="Invalid `average`"):
        tf.keras.metrics.F1Score(average="mean")


@pytest.mark.parametrize("aggregation, multioutput", [("uniform_average", "uniform_average"),
                                                       ("variance_weighted_average", "variance_weighted"),
                                                       (None, "raw_values")])
def test_r2_matches_sklearn(aggregation, multioutput):
    y = RNG.normal(size=(50, 2)).astype(np.float32)
    pred = (y + RNG.normal(scale=0.5, size=(50, 2))).astype(np.float32)
    metric = tf.keras.metrics.R2Score(class_aggregation=aggregation)
    metric.update_state(y[:20], pred[:20])
    metric.update_state(y[20:], pred[20:])
    expected = sk.r2_score(y, pred, multioutput=multioutput)
    np.testing.assert_allclose(metric.result().numpy(), expected, rtol=1e-4)


def test_adjusted_r2_and_compiled_use():
    y = RNG.normal(size=(20, 1)).astype(np.float32)
    pred = (y + RNG.normal(scale=0.3, size=(20, 1))).astype(np.float32)
    metric = tf.keras.metrics.R2Score(num_regressors=3)
    metric.update_state(y, pred)
    r2 = sk.r2_score(y, pred)
    assert float(metric.result()) == pytest.approx(1 - (1 - r2) * 19 / 16, rel=1e-4)
    model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(3, activation="softmax")])
    model.compile("sgd", "categorical_crossentropy", metrics=[tf.keras.metrics.F1Score(average="macro")])
    logs = model.fit(Y_PRED, Y_TRUE, epochs=1, verbose=0).history
    assert 0.0 <= logs["f1_score"][0] <= 1.0

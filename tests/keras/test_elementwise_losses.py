"""The other per-example Keras losses (MAPE, MSLE, LogCosh, Poisson, KLD, hinges, cosine) against NumPy."""

import numpy as np
import pytest

import companion as tf
from companion.keras import losses

EPS = 1e-7
RNG = np.random.default_rng(5)
Y = RNG.uniform(0.1, 1.0, size=(4, 3)).astype(np.float32)
P = RNG.uniform(0.1, 1.0, size=(4, 3)).astype(np.float32)
SIGNED = RNG.normal(size=(4, 3)).astype(np.float32)
BINARY = RNG.integers(0, 2, size=(4, 3)).astype(np.float32)
ONE_HOT = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]


def _hinge_labels(y):
    return 2 * y - 1 if np.isin(y, (0, 1)).all() else y


def _clip(x):
    return np.clip(x, EPS, 1)


def _unit(x, axis):
    return x / np.sqrt(np.maximum(np.sum(x * x, axis=axis, keepdims=True), 1e-12))


ORACLES = {  # class, per-example NumPy formula, labels, predictions
    "mean_absolute_percentage_error": (losses.MeanAbsolutePercentageError,
             lambda y, p: 100 * np.mean(np.abs((y - p) / np.maximum(np.abs(y), EPS)), -1), Y, SIGNED),
    "mean_squared_logarithmic_error": (losses.MeanSquaredLogarithmicError,
             lambda y, p: np.mean((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(y, EPS) + 1)) ** 2, -1),
             Y, P),
    "log_cosh": (losses.LogCosh, lambda y, p: np.mean(np.log(np.cosh(p - y)), -1), Y, SIGNED),
    "poisson": (losses.Poisson, lambda y, p: np.mean(p - y * np.log(p + EPS), -1), Y, P),
    "kl_divergence": (losses.KLDivergence, lambda y, p: np.sum(_clip(y) * np.log(_clip(y) / _clip(p)), -1),
                      Y / Y.sum(-1, keepdims=True), P / P.sum(-1, keepdims=True)),
    "hinge": (losses.Hinge, lambda y, p: np.mean(np.maximum(1 - _hinge_labels(y) * p, 0), -1),
              BINARY, SIGNED),
    "squared_hinge": (losses.SquaredHinge,
                      lambda y, p: np.mean(np.maximum(1 - _hinge_labels(y) * p, 0) ** 2, -1), BINARY, SIGNED),
    "categorical_hinge": (losses.CategoricalHinge,
                          lambda y, p: np.maximum(np.max((1 - y) * p, -1) - np.sum(y * p, -1) + 1, 0),
                          ONE_HOT, SIGNED),
    "cosine_similarity": (losses.CosineSimilarity,
                          lambda y, p: -np.sum(_unit(y, -1) * _unit(p, -1), -1), SIGNED, P),
}


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_loss_matches_numpy_with_every_reduction(name):
    cls, formula, y, p = ORACLES[name]
    expected = formula(y.astype(np.float64), p.astype(np.float64))
    np.testing.assert_allclose(losses.get(name)(y, p).numpy(), expected, rtol=2e-5, atol=1e-6)
    loss = cls()
    assert loss.name == name and type(losses.get(cls.__name__)) is cls
    np.testing.assert_allclose(float(loss(y, p)), expected.mean(), rtol=2e-5, atol=1e-6)
    weights = np.array([0.5, 2.0, 0.0, 1.0], np.float32)
    np.testing.assert_allclose(float(loss(y, p, sample_weight=weights)), np.mean(expected * weights),
                               rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(cls(reduction=None)(y, p).numpy(), expected, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(float(cls(reduction="sum")(y, p)), expected.sum(), rtol=2e-5, atol=1e-5)
    assert cls.from_config(loss.get_config()).name == name


def test_values_tensorflow_gives():
    # TF 2.21 (tf.keras, Keras 3) printed these for the same inputs
    assert float(losses.Hinge()([[1.0, -1.0]], [[0.3, 0.2]])) == pytest.approx(0.95, abs=1e-6)
    assert float(losses.KLDivergence()([[0.3, 0.7]], [[0.5, 0.5]])) == pytest.approx(0.08228, abs=1e-5)
    assert float(losses.CosineSimilarity()([[1.0, 0.0]], [[1.0, 1.0]])) == pytest.approx(-0.70711, abs=1e-5)
    assert float(losses.LogCosh()([1.0, 2.0], [1.5, 4.0])) == pytest.approx(0.72256, abs=1e-5)
    assert float(losses.Poisson()([1.0, 2.0], [1.5, 4.0])) == pytest.approx(1.16097, abs=1e-5)
    assert float(losses.MeanAbsolutePercentageError()([1.0, 2.0], [1.5, 4.0])) == pytest.approx(75.0)
    msle = losses.MeanSquaredLogarithmicError()
    assert float(msle([1.0, 2.0], [1.5, 4.0])) == pytest.approx(0.15537, abs=1e-5)


def test_cosine_similarity_along_another_axis_and_a_model_trained_with_a_new_loss():
    np.testing.assert_allclose(losses.CosineSimilarity(axis=0, reduction="none")(SIGNED, P).numpy(),
                               -np.sum(_unit(SIGNED, 0) * _unit(P, 0), 0), rtol=2e-5)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="kld")
    assert model.loss == "kld"
    target = Y / Y.sum(-1, keepdims=True)
    history = model.fit(P, target, epochs=20, verbose=0, batch_size=4).history["loss"]
    assert history[-1] < history[0]


def test_sparse_crossentropy_ignore_class_leaves_those_examples_out_as_tensorflow_does():
    p = np.array([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]], np.float32)
    y = np.array([1, 0, 2, 2])
    per_example = -np.log(p[np.arange(4), y])
    loss = losses.SparseCategoricalCrossentropy(ignore_class=2)
    kept = y != 2
    assert float(loss(y, p)) == pytest.approx(per_example[kept].mean(), rel=1e-5)  # mean over the kept
    np.testing.assert_allclose(losses.SparseCategoricalCrossentropy(ignore_class=2, reduction="none")(y, p),
                               np.where(kept, per_example, 0), rtol=1e-5)
    # what TF 2.21 printed for these inputs
    sparse = losses.SparseCategoricalCrossentropy
    assert float(sparse(ignore_class=0)(y, p)) == pytest.approx(0.61086, abs=1e-5)
    weighted = losses.SparseCategoricalCrossentropy(ignore_class=2)(y, p, sample_weight=[1.0, 2.0, 0.5, 1.0])
    assert float(weighted) == pytest.approx(0.8574, abs=1e-4)
    assert float(sparse(ignore_class=5)(y, p)) == pytest.approx(0.58585, abs=1e-5)
    assert losses.SparseCategoricalCrossentropy(ignore_class=3).get_config()["ignore_class"] == 3


def test_focal_dice_and_tversky_losses_match_numpy():
    y_true = np.array([[0.0, 1.0], [0.0, 0.0], [1.0, 1.0]], np.float32)
    y_pred = np.array([[0.6, 0.4], [0.4, 0.6], [0.9, 0.2]], np.float32)
    p = np.clip(y_pred, 1e-7, 1 - 1e-7)
    bce = -(y_true * np.log(p) + (1 - y_true) * np.log(1 - p))
    p_t = y_true * y_pred + (1 - y_true) * (1 - y_pred)
    focal = (1 - p_t) ** 2 * bce
    np.testing.assert_allclose(tf.keras.losses.binary_focal_crossentropy(y_true, y_pred).numpy(),
                               focal.mean(-1), rtol=1e-5)
    balanced = (y_true * 0.3 + (1 - y_true) * 0.7) * focal
    np.testing.assert_allclose(tf.keras.losses.binary_focal_crossentropy(
        y_true, y_pred, apply_class_balancing=True, alpha=0.3).numpy(), balanced.mean(-1), rtol=1e-5)
    onehot = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], np.float32)
    probs = np.array([[0.1, 0.7, 0.2], [0.3, 0.3, 0.4]], np.float32)
    expected = (0.25 * (1 - probs) ** 2 * -onehot * np.log(probs)).sum(-1)
    got = tf.keras.losses.categorical_focal_crossentropy(onehot, probs).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5)
    dice = 1 - 2 * (y_true * y_pred).sum() / (y_true.sum() + y_pred.sum() + 1e-7)
    assert float(tf.keras.losses.Dice()(y_true, y_pred)) == pytest.approx(dice, rel=1e-6)
    tp, fp, fn = (y_true * y_pred).sum(), ((1 - y_pred) * y_true).sum(), (y_pred * (1 - y_true)).sum()
    tversky = 1 - tp / (tp + 0.7 * fp + 0.3 * fn + 1e-7)
    got = float(tf.keras.losses.tversky(y_true, y_pred, alpha=0.7, beta=0.3))
    assert got == pytest.approx(tversky, rel=1e-6)
    assert float(tf.keras.losses.tversky(y_true, y_pred)) == pytest.approx(dice, rel=1e-6)  # 0.5, 0.5: dice

"""companion.keras.losses against NumPy versions of Keras's formulas."""

import numpy as np
import pytest

import companion as tf
from companion.keras import losses
from tests.checks import check_gradient

EPS = 1e-7


# -- NumPy oracles (Keras 2's formulas) ---------------------------------------------------------

def np_mse(y, p):
    return np.mean((p - y) ** 2, axis=-1)


def np_mae(y, p):
    return np.mean(np.abs(p - y), axis=-1)


def np_huber(y, p, delta=1.0):
    e = np.abs(p - y)
    return np.mean(np.where(e <= delta, 0.5 * e ** 2, delta * e - 0.5 * delta ** 2), axis=-1)


def np_bce(y, p, from_logits=False, label_smoothing=0.0):
    y = y * (1 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        p = 1 / (1 + np.exp(-p))
        return np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p)), axis=-1)
    eps = p.dtype.type(EPS)
    p = np.clip(p, eps, 1 - eps)
    return np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p)), axis=-1)  # Keras 3: no eps in the logs


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_cce(y, p, from_logits=False, label_smoothing=0.0):
    y = y * (1 - label_smoothing) + label_smoothing / y.shape[-1]
    p = np_softmax(p) if from_logits else np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS)
    return -np.sum(y * np.log(p), axis=-1)


def np_scce(labels, p, from_logits=False):
    labels = np.asarray(labels).reshape(p.shape[:-1]).astype(int)
    logp = np.log(np_softmax(p)) if from_logits else np.log(np.clip(p, EPS, 1 - EPS))
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    return -np.take_along_axis(logp, labels[..., None], -1)[..., 0]


def np_reduce(per_example, weights, reduction):
    weighted = per_example * (1.0 if weights is None else weights)
    if reduction == "none":
        return weighted
    return weighted.sum() if reduction == "sum" else weighted.sum() / weighted.size


# -- inputs --------------------------------------------------------------------------------------

def _regression(rng):
    return rng.normal(size=(4, 3)), rng.normal(size=(4, 3)) * 2


def _binary(rng):
    return (rng.random((4, 3)) > 0.5).astype(float), rng.uniform(0.0, 1.0, (4, 3))


def _categorical(rng):
    return np.eye(3)[[0, 2, 1, 2]], rng.dirichlet(np.ones(3), 4)


CASES = [
    ("mean_squared_error", losses.MeanSquaredError, {}, np_mse, _regression),
    ("mean_absolute_error", losses.MeanAbsoluteError, {}, np_mae, _regression),
    ("huber", losses.Huber, {"delta": 1.0}, np_huber, _regression),
    ("huber", losses.Huber, {"delta": 0.3}, np_huber, _regression),
    ("binary_crossentropy", losses.BinaryCrossentropy, {}, np_bce, _binary),
    ("binary_crossentropy", losses.BinaryCrossentropy, {"from_logits": True}, np_bce, _regression),
    ("binary_crossentropy", losses.BinaryCrossentropy, {"label_smoothing": 0.2}, np_bce, _binary),
    ("categorical_crossentropy", losses.CategoricalCrossentropy, {}, np_cce, _categorical),
    ("categorical_crossentropy", losses.CategoricalCrossentropy, {"from_logits": True}, np_cce,
     lambda rng: (_categorical(rng)[0], rng.normal(size=(4, 3)))),
    ("categorical_crossentropy", losses.CategoricalCrossentropy, {"label_smoothing": 0.1}, np_cce,
     _categorical),
]


@pytest.mark.parametrize("reduction", ["sum_over_batch_size", "sum", "none", "auto"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(("fn_name", "cls", "kwargs", "oracle", "make"), CASES)
def test_loss_matches_numpy(fn_name, cls, kwargs, oracle, make, reduction, weighted, rng):
    y, p = make(rng)
    weights = rng.uniform(0.0, 2.0, size=len(y)) if weighted else None
    per_example = oracle(y, p, **kwargs)
    fn = getattr(losses, fn_name)
    np.testing.assert_allclose(fn(y, p, **kwargs), per_example, rtol=1e-5, atol=1e-6)
    got = cls(reduction=reduction, **kwargs)(y, p, sample_weight=weights)
    want = np_reduce(per_example, weights, reduction)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("from_logits", [False, True])
@pytest.mark.parametrize("label_shape", [(4,), (4, 1)])
def test_sparse_categorical_crossentropy(from_logits, label_shape, rng):
    labels = np.array([0, 2, 1, 2]).reshape(label_shape)
    p = rng.normal(size=(4, 3)) if from_logits else rng.dirichlet(np.ones(3), 4)
    want = np_scce(labels, p, from_logits)
    got = losses.sparse_categorical_crossentropy(labels, p, from_logits=from_logits)
    np.testing.assert_allclose(got, want, rtol=1e-5)
    loss = losses.SparseCategoricalCrossentropy(from_logits=from_logits)
    np.testing.assert_allclose(loss(labels, p), want.mean(), rtol=1e-5)
    np.testing.assert_allclose(loss(labels, p, sample_weight=[1.0, 0.0, 2.0, 1.0]),
                               (want * [1.0, 0.0, 2.0, 1.0]).mean(), rtol=1e-5)


def test_probabilities_are_clipped_at_epsilon():
    y, p = np.array([[1.0, 0.0]], np.float32), np.array([[0.0, 1.0]], np.float32)
    got = losses.binary_crossentropy(y, p)  # float32 clipping: 1 - (1 - 1e-7) is 1.19e-7 there
    np.testing.assert_allclose(got, np_bce(y, p), rtol=1e-5)
    np.testing.assert_allclose(got, [16.03024], rtol=1e-6)  # TF 2.21's Keras 3.15
    assert np.isfinite(got.numpy()).all()
    assert np.isfinite(losses.sparse_categorical_crossentropy([0], [[0.0, 1.0]]).numpy()).all()


def test_labels_with_a_trailing_one_are_squeezed_by_the_class_not_broadcast():
    y, p = np.array([1.0, 2.0, 3.0]), np.array([[1.5], [2.0], [2.0]])
    np.testing.assert_allclose(losses.MeanSquaredError()(y, p), np.mean((p[:, 0] - y) ** 2))


def test_float64_inputs_stay_float64(rng):
    y, p = _regression(rng)
    assert losses.MeanSquaredError()(tf.constant(y), tf.constant(p)).dtype == tf.float64


def test_sample_weight_with_trailing_one_and_scalar(rng):
    y, p = _regression(rng)
    per_example = np_mse(y, p)
    w = rng.uniform(size=(4, 1))
    np.testing.assert_allclose(losses.MeanSquaredError()(y, p, sample_weight=w),
                               (per_example * w[:, 0]).mean(), rtol=1e-5)
    np.testing.assert_allclose(losses.MeanSquaredError()(y, p, sample_weight=2.0),
                               2 * per_example.mean(), rtol=1e-5)


@pytest.mark.parametrize(("cls", "kwargs"), [
    (losses.MeanSquaredError, {}), (losses.Huber, {"delta": 0.5}),
    (losses.BinaryCrossentropy, {"from_logits": True}), (losses.CategoricalCrossentropy, {}),
])
def test_gradients_match_finite_differences(cls, kwargs, rng):
    y = np.eye(3)[[0, 2, 1, 2]]
    p = rng.uniform(0.1, 0.9, size=(4, 3))
    check_gradient(lambda pred: cls(**kwargs)(tf.constant(y), pred), p)


def test_gradient_of_sparse_categorical_crossentropy(rng):
    p = rng.normal(size=(4, 3))
    loss = losses.SparseCategoricalCrossentropy(from_logits=True)
    check_gradient(lambda logits: loss([0, 2, 1, 2], logits), p)


def test_loss_inside_function_equals_eager(rng):
    y, p = _categorical(rng)
    loss = losses.CategoricalCrossentropy()
    staged = tf.function(lambda a, b: loss(a, b))
    np.testing.assert_allclose(staged(tf.constant(y), tf.constant(p)), loss(y, p), rtol=1e-6)


def test_custom_loss_subclass_uses_reduction():
    class AbsoluteError(losses.Loss):
        def call(self, y_true, y_pred):
            return tf.abs(y_true - y_pred)

    assert float(AbsoluteError()([1.0, 2.0], [2.0, 4.0])) == 1.5
    assert float(AbsoluteError(reduction=losses.Reduction.SUM)([1.0, 2.0], [2.0, 4.0])) == 3.0
    np.testing.assert_allclose(AbsoluteError(reduction="none")([1.0, 2.0], [2.0, 4.0]), [1.0, 2.0])


def test_reduction_aliases():
    assert (losses.Reduction.NONE, losses.Reduction.SUM) == ("none", "sum")
    assert (losses.Reduction.AUTO, losses.Reduction.SUM_OVER_BATCH_SIZE) == ("auto", "sum_over_batch_size")
    with pytest.raises(ValueError, match="reduction"):
        losses.MeanSquaredError(reduction="average")


def test_config_round_trip():
    loss = losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1, reduction="sum")
    again = losses.BinaryCrossentropy.from_config(loss.get_config())
    assert again.get_config() == loss.get_config()
    assert loss.get_config()["from_logits"] is True
    assert losses.deserialize(losses.serialize(loss)).get_config() == loss.get_config()


def test_get_by_name():
    assert losses.get("mse") is losses.mean_squared_error
    assert losses.get("sparse_categorical_crossentropy") is losses.sparse_categorical_crossentropy
    assert isinstance(losses.get("Huber"), losses.Huber)
    assert losses.get(losses.mae) is losses.mae
    with pytest.raises(ValueError, match="Unknown loss function: 'msee'"):
        losses.get("msee")


def test_mismatched_shapes_raise_clear_errors():
    with pytest.raises(ValueError, match=r"mean_squared_error.*\(4, 3\).*\(4, 2\)"):
        losses.MeanSquaredError()(np.zeros((4, 3)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="sparse_categorical_crossentropy"):
        losses.SparseCategoricalCrossentropy()(np.zeros((4, 3)), np.full((4, 3), 1 / 3))
    with pytest.raises(ValueError, match="categorical_crossentropy.*sparse"):
        losses.CategoricalCrossentropy()([0, 1], np.full((2, 3), 1 / 3))
    with pytest.raises(ValueError, match="sample_weight"):
        losses.MeanSquaredError()(np.zeros((4, 3)), np.zeros((4, 3)), sample_weight=[1.0, 2.0])


def test_unreduced_loss_keeps_one_value_per_example_for_labels_of_rank_one():
    """Labels (n,) beside sigmoid outputs (n, 1): Reduction.NONE gives (n,), as Keras 3 does."""
    labels = np.array([0.0, 1.0, 1.0, 0.0], np.float32)
    probabilities = np.array([[0.2], [0.7], [0.4], [0.9]], np.float32)
    loss = tf.keras.losses.BinaryCrossentropy(reduction=tf.keras.losses.Reduction.NONE)
    got = loss(labels, probabilities)
    want = -(labels * np.log(probabilities[:, 0]) + (1 - labels) * np.log(1 - probabilities[:, 0]))
    assert got.shape == (4,)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


def test_keras_3_reductions_and_a_subclass_name():
    # TF 2.21 (Keras 3.15): "mean" and "mean_with_sample_weight" reductions; a Loss subclass is
    # named after its class in snake_case
    y = tf.constant([[0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
    p = tf.constant([[1.0, 1.0], [1.0, 0.0], [0.5, 0.0]])
    w = tf.constant([1.0, 3.0, 0.5])
    per_example = np.array([0.5, 0.5, 0.125]) * np.array([1.0, 3.0, 0.5])
    mse = tf.keras.losses.MeanSquaredError
    np.testing.assert_allclose(float(mse(reduction="mean")(y, p, sample_weight=w)), per_example.sum() / 3)
    np.testing.assert_allclose(float(mse(reduction="mean_with_sample_weight")(y, p, sample_weight=w)),
                               per_example.sum() / 4.5, rtol=1e-6)
    np.testing.assert_allclose(float(mse(reduction="mean_with_sample_weight")(y, p)), 0.375)

    class MyHuber(tf.keras.losses.Loss):
        def call(self, y_true, y_pred):
            return tf.abs(y_true - y_pred)

    assert MyHuber().name.startswith("my_huber") and MyHuber(name="x").name == "x"


def test_configs_keras3_leaves_arguments_out_of():
    # TF 2.21's Keras 3.15: Huber and CosineSimilarity configs hold only name and reduction/dtype;
    # the metrics' label_smoothing default is the int 0; SparseCategoricalCrossentropy has ignore_class
    from companion import keras

    assert keras.losses.Huber(delta=2.0).get_config() == {"name": "huber_loss",
                                                          "reduction": "sum_over_batch_size"}
    assert keras.losses.CosineSimilarity(axis=0).get_config() == {"name": "cosine_similarity",
                                                                  "reduction": "sum_over_batch_size"}
    assert keras.metrics.CosineSimilarity().get_config() == {"name": "cosine_similarity", "dtype": "float32"}
    assert repr(keras.metrics.BinaryCrossentropy().get_config()) == (
        "{'name': 'binary_crossentropy', 'dtype': 'float32', 'from_logits': False, 'label_smoothing': 0}")
    assert keras.metrics.SparseCategoricalCrossentropy().get_config() == {
        "name": "sparse_categorical_crossentropy", "dtype": "float32", "from_logits": False,
        "ignore_class": None, "axis": -1}
    assert keras.regularizers.L1(0.1).get_config() == {"l1": 0.10000000149011612}
    assert keras.regularizers.L2(0.1).get_config() == {"l2": 0.1}


def test_cross_entropies_take_the_logits_of_keras_sigmoid_and_softmax_outputs():
    # TF 2.21's Keras 3.15 (probe): sigmoid/softmax outputs keep their logits, and the losses use them
    from companion import keras

    z = tf.constant([[2.0, -1.0], [0.3, 4.0]])
    y = tf.constant([[1.0, 0.0], [0.0, 1.0]])
    through_sigmoid = keras.losses.binary_crossentropy(y, keras.activations.sigmoid(z)).numpy()
    from_logits = keras.losses.binary_crossentropy(y, z, from_logits=True).numpy()
    assert through_sigmoid.tolist() == from_logits.tolist()
    assert through_sigmoid.tolist() == [0.22009484469890594, 0.4362525939941406]
    plain = keras.losses.binary_crossentropy(y, tf.constant(keras.activations.sigmoid(z).numpy())).numpy()
    np.testing.assert_allclose(plain, [0.22009482979774475, 0.4362526535987854], rtol=3e-7)  # from p
    dense = keras.layers.Dense(2, activation="softmax")
    out = dense(tf.ones((2, 3)))
    logits = tf.ones((2, 3)) @ dense.kernel + dense.bias
    want = keras.losses.sparse_categorical_crossentropy([0, 1], logits, from_logits=True)
    np.testing.assert_array_equal(keras.losses.sparse_categorical_crossentropy([0, 1], out), want)
    np.testing.assert_array_equal(keras.ops.categorical_crossentropy(y, keras.ops.softmax(z)),
                                  keras.ops.categorical_crossentropy(y, z, from_logits=True))
    assert keras.ops.binary_crossentropy(y, tf.constant([[0.9, 0.2], [0.3, 0.6]])).numpy().tolist() == [
        [0.10536054521799088, 0.22314353287220], [0.3566749691963196, 0.5108255743980408]]


def test_binary_crossentropy_from_logits_gradient_at_zero_logits():
    # TF 2.21: a zero-initialized Dense(1, sigmoid) on x = 1..4, y = 0,1,0,1 gets kernel gradient -0.25
    # and bias gradient 0 (sigmoid(z) - y at z == 0; the loss now goes through the logits)
    from companion import keras

    dense = keras.layers.Dense(1, activation="sigmoid", kernel_initializer="zeros")
    x, y = tf.constant([[1.0], [2.0], [3.0], [4.0]]), tf.constant([[0.0], [1.0], [0.0], [1.0]])
    dense(x)
    for from_logits in (False, True):
        with tf.GradientTape() as tape:
            out = dense(x) if not from_logits else x @ dense.kernel + dense.bias
            loss = keras.losses.BinaryCrossentropy(from_logits=from_logits)(y, out)
        kernel_grad, bias_grad = tape.gradient(loss, dense.trainable_weights)
        assert kernel_grad.numpy().tolist() == [[-0.25]] and bias_grad.numpy().tolist() == [0.0]


def test_reduction_none_is_kept_as_given_and_reduces_as_none():
    # TF 2.21 + Keras 3.15 (probe keras23/p14): get_config()["reduction"] is None, the losses per example
    loss = tf.keras.losses.BinaryCrossentropy(reduction=None)
    assert loss.get_config()["reduction"] is None
    y_true = np.array([[0.0, 1.0], [1.0, 0.0]], "float32")
    values = loss(y_true, np.array([[0.2, 0.8], [0.4, 0.6]], "float32"))
    np.testing.assert_allclose(values, [0.22314353, 0.91629076], rtol=1e-5)
    again = tf.keras.losses.BinaryCrossentropy.from_config(loss.get_config())
    assert again.reduction is None and again.get_config() == loss.get_config()


@pytest.mark.parametrize(("loss", "y_true", "first_line"), [
    # TF 2.21 / Keras 3's first lines; companion's advice follows on the next line
    (tf.keras.losses.sparse_categorical_crossentropy, np.eye(2),
     "Argument `output` must have rank (ndim) `target.ndim - 1`. Received: target.shape=(2, 2), "
     "output.shape=(2, 2)"),
    (tf.keras.losses.sparse_categorical_crossentropy, np.array([0, 1, 1]),
     "Arguments `target` and `output` must have the same shape up until the last dimension: "
     "target.shape=(3,), output.shape=(2, 2)"),
    (tf.keras.losses.categorical_crossentropy, np.array([0.0, 1.0]),
     "Arguments `target` and `output` must have the same rank (ndim). Received: target.shape=(2,), "
     "output.shape=(2, 2)"),
    (tf.keras.losses.categorical_crossentropy, np.eye(3)[:2],
     "Arguments `target` and `output` must have the same shape. Received: target.shape=(2, 3), "
     "output.shape=(2, 2)"),
])
def test_cross_entropy_label_shape_errors_are_keras_3s(loss, y_true, first_line):
    probs = np.array([[0.25, 0.75], [0.5, 0.5]], np.float32)
    with pytest.raises(ValueError) as info:
        loss(y_true, probs)
    lines = str(info.value).splitlines()
    assert lines[0] == first_line and len(lines) == 2

"""keras.backend's legacy functions against NumPy oracles (values), finite differences (tape gradients)
and the adjoint identity (transposed convolution); settings, dtypes, Variables and errors."""

import itertools

import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf
from companion.keras import backend as K
from companion.keras.layers._keras_mask import get_keras_mask
from tests.checks import check_gradient, check_op


@pytest.fixture
def x23(rng):
    return rng.normal(size=(2, 3))


def _np_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _np_softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


# -- element-wise math, comparisons, reductions ------------------------------------------------

@pytest.mark.parametrize("fn, reference", [
    (K.cos, np.cos), (K.sin, np.sin), (K.tanh, np.tanh), (K.sigmoid, _np_sigmoid),
    (K.softplus, lambda x: np.log1p(np.exp(x))), (K.softsign, lambda x: x / (1 + np.abs(x))),
])
def test_smooth_unary_functions_match_numpy(x23, fn, reference):
    check_op(fn, reference, x23)


def test_sign_round_and_pow_match_numpy(rng):
    x = np.array([-2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7])
    check_op(K.sign, np.sign, x, grad=False)
    check_op(K.round, np.round, x, grad=False)  # both round halves to even
    check_op(K.pow, np.power, rng.uniform(0.5, 2.0, size=(2, 3)), 3.0)


def test_hard_sigmoid_is_the_clipped_line(rng):
    x = rng.uniform(-4, 4, size=(3, 4))
    check_op(K.hard_sigmoid, lambda v: np.clip(0.2 * v + 0.5, 0.0, 1.0), x)


@pytest.mark.parametrize("low, high", [(-0.5, 0.5), (None, 0.2), (-0.3, None)])
def test_clip_matches_numpy_with_open_bounds(x23, low, high):
    expected = np.clip(x23, -np.inf if low is None else low, np.inf if high is None else high)
    np.testing.assert_allclose(K.clip(tf.constant(x23), low, high).numpy(), expected)


def test_clip_with_max_below_min_gives_min_everywhere(x23):
    np.testing.assert_array_equal(K.clip(tf.constant(x23), 1.0, 0.0).numpy(), np.ones_like(x23))


@pytest.mark.parametrize("fn, reference", [
    (K.equal, np.equal), (K.not_equal, np.not_equal), (K.greater, np.greater),
    (K.greater_equal, np.greater_equal), (K.less, np.less), (K.less_equal, np.less_equal),
])
def test_comparisons_match_numpy(rng, fn, reference):
    a = rng.integers(0, 3, size=(3, 4)).astype(np.float32)
    b = rng.integers(0, 3, size=(4,)).astype(np.float32)
    np.testing.assert_array_equal(fn(tf.constant(a), tf.constant(b)).numpy(), reference(a, b))


@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (1, True), ((0, 1), False)])
@pytest.mark.parametrize("fn, reference", [
    (K.prod, np.prod), (K.max, np.max), (K.min, np.min), (K.std, np.std), (K.var, np.var),
])
def test_reductions_match_numpy(x23, fn, reference, axis, keepdims):
    check_op(fn, lambda x, axis, keepdims: reference(x, axis=axis, keepdims=keepdims), x23,
             axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("fn, reference", [(K.all, np.all), (K.any, np.any)])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_all_and_any_read_numbers_as_booleans(rng, fn, reference, axis):
    x = rng.integers(0, 2, size=(3, 4)) * rng.normal(size=(3, 4))
    np.testing.assert_array_equal(fn(tf.constant(x), axis=axis).numpy(), reference(x != 0, axis=axis))


def test_argmax_argmin_default_to_the_last_axis(x23):
    np.testing.assert_array_equal(K.argmax(tf.constant(x23)).numpy(), np.argmax(x23, axis=-1))
    np.testing.assert_array_equal(K.argmin(tf.constant(x23), axis=0).numpy(), np.argmin(x23, axis=0))


@pytest.mark.parametrize("fn", [K.std, K.var, K.mean])
def test_boolean_statistics_are_float32(fn):
    values = np.array([True, False, False, True, True])
    got = fn(tf.constant(values))
    assert got.dtype == tf.float32
    reference = {K.std: np.std, K.var: np.var, K.mean: np.mean}[fn]
    np.testing.assert_allclose(float(got), reference(values.astype(np.float32)), rtol=1e-6)


@pytest.mark.parametrize("axis", [0, 1])
def test_cumulative_ops_match_numpy(x23, axis):
    check_op(K.cumsum, lambda x, axis: np.cumsum(x, axis=axis), x23, axis=axis)
    check_op(K.cumprod, lambda x, axis: np.cumprod(x, axis=axis), x23, axis=axis)


def test_cumulative_ops_default_to_axis_0(x23):
    np.testing.assert_allclose(K.cumsum(tf.constant(x23)).numpy(), np.cumsum(x23, axis=0))


# -- activations --------------------------------------------------------------------------------

def _np_relu(x, alpha=0.0, max_value=None, threshold=0.0):
    # above the threshold: x, clipped to [0, max_value] (Keras leaves a negative threshold's
    # (threshold, 0) band unclipped when there is no max_value); below: alpha * (x - threshold)
    high = np.inf if max_value is None else max_value
    above = x if threshold != 0 and max_value is None else np.clip(x, 0.0, high)
    return np.where(x > threshold, above, alpha * (x - threshold))


@pytest.mark.parametrize("alpha, max_value, threshold", [
    (0.0, None, 0.0), (0.1, None, 0.0), (0.0, 6.0, 0.0), (0.0, 2.0, 0.0), (0.0, None, 0.7),
    (0.2, 3.0, 0.5), (0.3, 6, 0.0), (0.1, None, -0.4),
])
def test_relu_matches_keras_formula(rng, alpha, max_value, threshold):
    x = rng.uniform(-4, 8, size=(4, 5))
    x = x[np.abs(x - threshold) > 1e-3]  # away from the kinks for finite differences
    x = x[np.abs(x - (max_value or 100)) > 1e-3]
    x = x[np.abs(x) > 1e-3]
    check_op(K.relu, _np_relu, x, alpha=alpha, max_value=max_value, threshold=threshold)


def test_relu_accepts_python_lists():
    np.testing.assert_allclose(K.relu([-1.0, 2.0], alpha=0.5, max_value=1.0).numpy(), [-0.5, 1.0])


@pytest.mark.parametrize("alpha", [1.0, 0.5, 2.0])
def test_elu_matches_numpy(rng, alpha):
    x = rng.normal(size=(3, 4))
    check_op(K.elu, lambda v, alpha: np.where(v > 0, v, alpha * np.expm1(v)), x, alpha=alpha)


@pytest.mark.parametrize("axis", [-1, 0, (1, 2)])
def test_softmax_matches_numpy(rng, axis):
    x = rng.normal(size=(2, 3, 4))
    check_op(K.softmax, lambda v, axis: _np_softmax(v, axis=axis), x, axis=axis)


def test_softmax_of_a_vector_is_an_error():
    with pytest.raises(ValueError, match="1D"):
        K.softmax(tf.constant([1.0, 2.0]))


# -- losses --------------------------------------------------------------------------------------

EPS = 1e-7


def _probs(rng, shape):
    return _np_softmax(rng.normal(size=shape))


def test_binary_crossentropy_from_probabilities_and_logits(rng):
    target = rng.integers(0, 2, size=(3, 4)).astype(np.float64)
    output = rng.uniform(0.01, 0.99, size=(3, 4))
    clipped = np.clip(output, EPS, 1 - EPS)
    want = -(target * np.log(clipped + EPS) + (1 - target) * np.log(1 - clipped + EPS))
    check_op(K.binary_crossentropy, lambda t, o: want, target, output)
    logits = rng.normal(size=(3, 4))
    stable = np.maximum(logits, 0) - logits * target + np.log1p(np.exp(-np.abs(logits)))
    check_op(K.binary_crossentropy, lambda t, o, from_logits: stable, target, logits, from_logits=True)


@pytest.mark.parametrize("balance, alpha, gamma, from_logits", [
    (False, 0.25, 2.0, False), (True, 0.4, 1.5, False), (True, 0.25, 2.0, True),
])
def test_binary_focal_crossentropy_scales_bce(rng, balance, alpha, gamma, from_logits):
    target = rng.integers(0, 2, size=(2, 5)).astype(np.float64)
    output = rng.normal(size=(2, 5)) if from_logits else rng.uniform(0.05, 0.95, size=(2, 5))
    probs = _np_sigmoid(output) if from_logits else output
    if from_logits:
        bce = np.maximum(output, 0) - output * target + np.log1p(np.exp(-np.abs(output)))
    else:
        clipped = np.clip(output, EPS, 1 - EPS)
        bce = -(target * np.log(clipped + EPS) + (1 - target) * np.log(1 - clipped + EPS))
    p_t = target * probs + (1 - target) * (1 - probs)
    want = (1 - p_t) ** gamma * bce
    if balance:
        want = want * (target * alpha + (1 - target) * (1 - alpha))
    check_op(K.binary_focal_crossentropy, lambda *a, **k: want, target, output, apply_class_balancing=balance,
             alpha=alpha, gamma=gamma, from_logits=from_logits)


@pytest.mark.parametrize("axis", [-1, 0])
def test_categorical_crossentropy_normalizes_and_clips(rng, axis):
    target = np.eye(4)[rng.integers(0, 4, size=3)]
    output = rng.uniform(0.1, 2.0, size=(3, 4))  # not normalized
    if axis == 0:
        target, output = target.T, output.T
    normalized = output / output.sum(axis=axis, keepdims=True)
    want = -np.sum(target * np.log(np.clip(normalized, EPS, 1 - EPS)), axis=axis)
    check_op(K.categorical_crossentropy, lambda t, o, axis: want, target, output, axis=axis)


def test_categorical_crossentropy_from_logits_is_log_softmax(rng):
    target = _probs(rng, (3, 5))
    logits = rng.normal(size=(3, 5))
    log_softmax = logits - np.log(np.sum(np.exp(logits), axis=-1, keepdims=True))
    want = -np.sum(target * log_softmax, axis=-1)
    check_op(K.categorical_crossentropy, lambda t, o, from_logits: want, target, logits, from_logits=True)


def test_categorical_crossentropy_needs_matching_shapes():
    with pytest.raises(ValueError, match="same shape"):
        K.categorical_crossentropy(tf.ones([2, 3]), tf.ones([2, 4]))


@pytest.mark.parametrize("from_logits", [False, True])
def test_categorical_focal_crossentropy_matches_numpy(rng, from_logits):
    target = np.eye(4)[rng.integers(0, 4, size=3)]
    output = rng.normal(size=(3, 4)) if from_logits else rng.uniform(0.1, 1.0, size=(3, 4))
    probs = _np_softmax(output) if from_logits else output / output.sum(axis=-1, keepdims=True)
    probs = np.clip(probs, EPS, 1 - EPS)
    want = np.sum(0.3 * (1 - probs) ** 1.5 * -target * np.log(probs), axis=-1)
    check_op(K.categorical_focal_crossentropy, lambda *a, **k: want, target, output, alpha=0.3, gamma=1.5,
             from_logits=from_logits)


def test_sparse_categorical_crossentropy_equals_the_one_hot_loss(rng):
    labels = rng.integers(0, 4, size=(5,))
    probs = rng.uniform(0.05, 1.0, size=(5, 4))
    probs /= probs.sum(axis=-1, keepdims=True)
    want = -np.log(np.clip(probs, EPS, 1 - EPS)[np.arange(5), labels])
    got = K.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(probs))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    column = K.sparse_categorical_crossentropy(tf.constant(labels[:, None]), tf.constant(probs))
    np.testing.assert_allclose(column.numpy(), want, rtol=1e-6)
    logits = rng.normal(size=(5, 4))
    want = -(logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True)))[np.arange(5), labels]
    got = K.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(logits), from_logits=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_sparse_categorical_crossentropy_over_another_axis_and_sequences(rng):
    labels = rng.integers(0, 3, size=(2, 4))
    logits = rng.normal(size=(2, 4, 3))
    log_softmax = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    want = -np.take_along_axis(log_softmax, labels[..., None], axis=-1)[..., 0]
    got = K.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(logits), from_logits=True)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    moved = K.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(np.moveaxis(logits, 2, 1)),
                                              from_logits=True, axis=1)
    np.testing.assert_allclose(moved.numpy(), want, rtol=1e-6)


def test_sparse_categorical_crossentropy_ignore_class_gives_zero_and_a_mask():
    labels = np.array([1, 2, 0])
    probs = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.6, 0.2, 0.2]])
    got = K.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(probs), ignore_class=2)
    np.testing.assert_allclose(got.numpy(), [-np.log(0.7), 0.0, -np.log(0.6)], rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(get_keras_mask(got)), [True, False, True])


# -- shapes and arrays ---------------------------------------------------------------------------

def test_shape_queries():
    m = tf.zeros([2, 3, 4])
    assert K.int_shape(m) == (2, 3, 4)
    assert K.int_shape(np.zeros((3, 1))) == (3, 1)
    assert K.int_shape(tf.keras.Input((5,))) == (None, 5)
    assert K.ndim(m) == 3 and K.ndim(np.zeros(2)) == 1
    np.testing.assert_array_equal(K.shape(m).numpy(), [2, 3, 4])
    assert K.count_params(tf.Variable(tf.zeros([3, 4]))) == 12
    assert K.count_params(tf.constant(1.0)) == 1
    with pytest.raises(AttributeError, match="shape"):
        K.int_shape([1, 2])
    with pytest.raises(TypeError, match="fully known"):
        K.count_params(tf.keras.Input((3,)))


def test_array_functions_match_numpy(rng):
    a = rng.normal(size=(2, 3, 4))
    t = tf.constant(a)
    np.testing.assert_array_equal(K.reshape(t, (4, -1)).numpy(), a.reshape(4, -1))
    np.testing.assert_array_equal(K.flatten(t).numpy(), a.ravel())
    np.testing.assert_array_equal(K.batch_flatten(t).numpy(), a.reshape(2, -1))
    np.testing.assert_array_equal(K.expand_dims(t).numpy(), a[..., None])
    np.testing.assert_array_equal(K.expand_dims(t, 1).numpy(), a[:, None])
    np.testing.assert_array_equal(K.squeeze(K.expand_dims(t, 1), 1).numpy(), a)
    np.testing.assert_array_equal(K.transpose(t).numpy(), a.T)
    np.testing.assert_array_equal(K.permute_dimensions(t, (2, 0, 1)).numpy(), a.transpose(2, 0, 1))
    np.testing.assert_array_equal(K.reverse(t, 2).numpy(), a[:, :, ::-1])
    np.testing.assert_array_equal(K.reverse(t, [0, 1]).numpy(), a[::-1, ::-1])
    np.testing.assert_array_equal(K.gather(t, [1, 0, 1]).numpy(), a[[1, 0, 1]])
    np.testing.assert_array_equal(K.tile(t, (1, 2, 1)).numpy(), np.tile(a, (1, 2, 1)))
    np.testing.assert_array_equal(K.tile(tf.constant([1, 2]), 3).numpy(), np.tile([1, 2], 3))
    np.testing.assert_array_equal(K.stack([t, t], axis=1).numpy(), np.stack([a, a], axis=1))
    for axis in (0, 1, 2, -1):
        np.testing.assert_array_equal(K.repeat_elements(t, 3, axis).numpy(), np.repeat(a, 3, axis=axis))
    for axis in (0, 1, -1, -2):
        np.testing.assert_array_equal(K.concatenate([t, t * 2], axis=axis).numpy(),
                                      np.concatenate([a, a * 2], axis=axis))


def test_repeat_adds_a_time_axis_and_needs_rank_2(rng):
    a = rng.normal(size=(2, 3))
    np.testing.assert_array_equal(K.repeat(tf.constant(a), 4).numpy(), np.repeat(a[:, None], 4, axis=1))
    with pytest.raises(ValueError, match="rank 2"):
        K.repeat(tf.constant([1.0, 2.0]), 2)


def test_array_gradients_match_finite_differences(rng):
    check_gradient(lambda x: K.repeat_elements(x, 2, 1), rng.normal(size=(2, 3)))
    check_gradient(lambda x: K.permute_dimensions(x, (1, 0, 2)), rng.normal(size=(2, 3, 2)))
    check_gradient(lambda x: K.concatenate([x, x * x]), rng.normal(size=(2, 3)))


def test_one_hot_and_in_top_k_match_numpy(rng):
    idx = rng.integers(0, 5, size=(3, 2))
    np.testing.assert_array_equal(K.one_hot(tf.constant(idx), 5).numpy(), np.eye(5, dtype=np.float32)[idx])
    preds = rng.normal(size=(6, 5)).astype(np.float32)
    targets = rng.integers(0, 5, size=6)
    for k in (1, 2, 4):
        top = np.argsort(-preds, axis=1)[:, :k]
        want = np.array([targets[i] in top[i] for i in range(6)])
        np.testing.assert_array_equal(K.in_top_k(tf.constant(preds), tf.constant(targets), k).numpy(), want)


# -- products ------------------------------------------------------------------------------------

@pytest.mark.parametrize("x_shape, y_shape", [((2, 3), (3, 4)), ((2, 3, 4), (4, 5)), ((2, 3), (4, 3, 5)),
                                              ((2, 3, 4), (6, 4, 5))])
def test_dot_is_numpys_dot(rng, x_shape, y_shape):
    check_op(K.dot, np.dot, rng.normal(size=x_shape), rng.normal(size=y_shape))


def test_dot_of_a_sparse_matrix(rng):
    dense = np.array([[0.0, 2.0], [3.0, 0.0]])
    sparse = tf.SparseTensor(indices=[[0, 1], [1, 0]], values=[2.0, 3.0], dense_shape=[2, 2])
    y = rng.normal(size=(2, 3)).astype(np.float32)
    np.testing.assert_allclose(K.dot(sparse, tf.constant(y)).numpy(), dense @ y, rtol=1e-6)


@pytest.mark.parametrize("x_shape, y_shape, axes, spec", [
    ((2, 3, 4), (2, 4, 5), None, "bij,bjk->bik"),
    ((2, 4, 3), (2, 5, 4), (1, 2), "bji,bkj->bik"),
    ((2, 3), (2, 3), None, "bi,bi->b"),
    ((2, 3), (2, 3), 1, "bi,bi->b"),
    ((2, 3), (2, 3, 4), None, "bi,bij->bj"),
    ((2, 3, 4), (2, 4), None, "bij,bj->bi"),
    ((2, 2, 3, 4), (2, 4, 3), (3, 1), "bijk,bkl->bijl"),
    ((2, 3, 4), (2, 4, 2, 5), (2, 1), "bij,bjkl->bikl"),
])
def test_batch_dot_matches_einsum(rng, x_shape, y_shape, axes, spec):
    x, y = rng.normal(size=x_shape), rng.normal(size=y_shape)
    want = np.einsum(spec, x, y)
    if x.ndim == 2 and y.ndim == 2:
        want = want[:, None]  # two rank-2 inputs give (batch, 1)
    check_op(lambda a, b: K.batch_dot(a, b, axes=axes), lambda a, b: want, x, y)


@pytest.mark.parametrize("x_shape, y_shape, axes, match", [
    ((2,), (2, 3), None, "rank < 2"), ((2, 3), (3, 3), None, "batch sizes"),
    ((2, 3, 4), (2, 4, 5), 0, "axis 0"), ((2, 3, 4), (2, 5, 4), (2, 1), "!="),
    ((2, 3, 4), (2, 4, 5), ([1, 2], 1), "Multiple"),
])
def test_batch_dot_errors(x_shape, y_shape, axes, match):
    with pytest.raises(ValueError, match=match):
        K.batch_dot(tf.ones(x_shape), tf.ones(y_shape), axes=axes)


# -- layer helpers -------------------------------------------------------------------------------

def test_bias_add_layouts(rng):
    x = rng.normal(size=(2, 3, 4))
    bias = rng.normal(size=(4,))
    check_op(K.bias_add, lambda a, b: a + b, x, bias)
    first = rng.normal(size=(3,))
    check_op(lambda a, b: K.bias_add(a, b, data_format="channels_first"), lambda a, b: a + b[None, :, None],
             x, first)
    full = rng.normal(size=(3, 4))
    check_op(K.bias_add, lambda a, b: a + b[None], x, full)
    # channels_first with a full bias: Keras reshapes the (..., channels) bias to (channels, ...)
    full_first = rng.normal(size=(4, 3))
    np.testing.assert_allclose(K.bias_add(tf.constant(x), tf.constant(full_first), "channels_first").numpy(),
                               x + full_first.reshape(1, 3, 4))
    with pytest.raises(ValueError, match="bias dimensions"):
        K.bias_add(tf.constant(x), tf.ones([2, 2, 2, 2], tf.float64))
    with pytest.raises(ValueError, match="data_format"):
        K.bias_add(tf.constant(x), tf.constant(bias), data_format="NHWC")


def test_batch_normalization_and_l2_normalize_match_numpy(rng):
    x, mean, var = rng.normal(size=(4, 3)), rng.normal(size=3), rng.uniform(0.5, 2, size=3)
    beta, gamma = rng.normal(size=3), rng.normal(size=3)
    check_op(K.batch_normalization, lambda x, m, v, b, g, epsilon: (x - m) / np.sqrt(v + epsilon) * g + b,
             x, mean, var, beta, gamma, epsilon=1e-3)
    check_op(K.l2_normalize, lambda v, axis: v / np.sqrt(np.sum(v * v, axis=axis, keepdims=True)), x, axis=1)
    check_op(K.l2_normalize, lambda v, axis: v / np.sqrt(np.sum(v * v)), x, axis=None)


def test_dropout_keeps_scaled_values_and_draws_its_seed_from_numpy():
    out = K.dropout(tf.ones([4000]), 0.25, seed=7).numpy()
    assert set(np.unique(out).tolist()) <= {0.0, float(np.float32(1) / np.float32(0.75))}
    assert abs(np.mean(out == 0) - 0.25) < 0.05
    state = np.random.get_state()
    try:
        np.random.seed(0)
        K.dropout(tf.ones([3]), 0.5)
        drawn_once = np.random.randint(10e6)
        np.random.seed(0)
        np.random.randint(10e6)
        assert np.random.randint(10e6) == drawn_once  # exactly one draw per call
    finally:
        np.random.set_state(state)
    shaped = K.dropout(tf.ones([50, 6]), 0.5, noise_shape=(50, 1), seed=3).numpy()
    assert np.all(shaped == shaped[:, :1])  # one decision per row


# -- convolutions and pooling -------------------------------------------------------------------

def _np_conv2d(x, k, stride=(1, 1), dilation=(1, 1)):
    """Valid cross-correlation of NHWC ``x`` with HWIO ``k``."""
    kh, kw = (k.shape[0] - 1) * dilation[0] + 1, (k.shape[1] - 1) * dilation[1] + 1
    rows = (x.shape[1] - kh) // stride[0] + 1
    cols = (x.shape[2] - kw) // stride[1] + 1
    out = np.zeros((x.shape[0], rows, cols, k.shape[3]))
    for i, j in itertools.product(range(rows), range(cols)):
        top, left = i * stride[0], j * stride[1]
        patch = x[:, top:top + kh:dilation[0], left:left + kw:dilation[1]]
        out[:, i, j] = np.einsum("bhwc,hwco->bo", patch, k)
    return out


@pytest.mark.parametrize("strides, dilation", [((1, 1), (1, 1)), ((2, 1), (1, 1)), ((1, 1), (2, 2))])
def test_conv2d_matches_a_direct_convolution(rng, strides, dilation):
    x, k = rng.normal(size=(2, 6, 5, 3)), rng.normal(size=(2, 3, 3, 4))
    check_op(lambda a, b: K.conv2d(a, b, strides=strides, dilation_rate=dilation),
             lambda a, b: _np_conv2d(a, b, strides, dilation), x, k, rtol=1e-4, grad_rtol=1e-3)


def test_conv2d_same_padding_and_channels_first(rng):
    x, k = rng.normal(size=(1, 5, 5, 2)), rng.normal(size=(3, 3, 2, 3))
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    np.testing.assert_allclose(K.conv2d(tf.constant(x), tf.constant(k), padding="same").numpy(),
                               _np_conv2d(padded, k), rtol=1e-5, atol=1e-6)
    first = K.conv2d(tf.constant(x.transpose(0, 3, 1, 2)), tf.constant(k), data_format="channels_first")
    np.testing.assert_allclose(first.numpy(), _np_conv2d(x, k).transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("padding, dilation", [("valid", 1), ("same", 1), ("causal", 1), ("causal", 2)])
def test_conv1d_matches_a_direct_convolution(rng, padding, dilation):
    x, k = rng.normal(size=(2, 7, 3)), rng.normal(size=(3, 3, 2))
    if padding == "causal":
        padded = np.pad(x, ((0, 0), (2 * dilation, 0), (0, 0)))
    elif padding == "same":
        padded = np.pad(x, ((0, 0), (1, 1), (0, 0)))
    else:
        padded = x
    want = _np_conv2d(padded[:, :, None], k[:, None], dilation=(dilation, 1))[:, :, 0]
    got = K.conv1d(tf.constant(x), tf.constant(k), padding=padding, dilation_rate=dilation)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_conv3d_matches_a_direct_convolution(rng):
    x, k = rng.normal(size=(1, 4, 3, 3, 2)), rng.normal(size=(2, 2, 2, 2, 3))
    want = np.zeros((1, 3, 2, 2, 3))
    for d, i, j in itertools.product(range(3), range(2), range(2)):
        want[:, d, i, j] = np.einsum("bdhwc,dhwco->bo", x[:, d:d + 2, i:i + 2, j:j + 2], k)
    np.testing.assert_allclose(K.conv3d(tf.constant(x), tf.constant(k)).numpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("strides, padding, in_size, out_size, dilation", [
    ((2, 2), "same", 3, 6, (1, 1)), ((1, 1), "valid", 3, 4, (1, 1)), ((2, 2), "valid", 3, 7, (1, 1)),
    ((1, 1), "valid", 3, 5, (2, 2)), ((1, 1), "same", 4, 4, (2, 2)),
])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_conv2d_transpose_is_the_adjoint_of_conv2d(rng, strides, padding, in_size, out_size, dilation,
                                                   data_format):
    x = rng.normal(size=(2, in_size, in_size, 3))
    k = rng.normal(size=(2, 2, 4, 3))  # (rows, cols, out channels, in channels)
    y = rng.normal(size=(2, out_size, out_size, 4))
    forward = K.conv2d(tf.constant(y), tf.constant(k), strides=strides, padding=padding,
                       dilation_rate=dilation).numpy()
    assert forward.shape == x.shape
    first = data_format == "channels_first"
    to_first = (0, 3, 1, 2)
    x_in = x.transpose(to_first) if first else x
    out_shape = (None, 4, out_size, out_size) if first else (None, out_size, out_size, 4)
    back = K.conv2d_transpose(tf.constant(x_in), tf.constant(k), out_shape, strides=strides, padding=padding,
                              data_format=data_format, dilation_rate=dilation).numpy()
    if first:
        back = back.transpose(0, 2, 3, 1)
    np.testing.assert_allclose(np.sum(forward * x), np.sum(y * back), rtol=1e-5)


def test_conv2d_transpose_needs_equal_dilation_rates():
    with pytest.raises(ValueError, match="dilation_rate"):
        K.conv2d_transpose(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), (1, 5, 5, 1), dilation_rate=(1, 2))


def test_depthwise_and_separable_conv2d_match_per_channel_convolutions(rng):
    x, dk, pk = rng.normal(size=(2, 5, 5, 3)), rng.normal(size=(2, 2, 3, 2)), rng.normal(size=(1, 1, 6, 4))
    depthwise = np.stack([_np_conv2d(x[..., c:c + 1], dk[:, :, c:c + 1]) for c in range(3)], axis=3)
    depthwise = depthwise.reshape(2, 4, 4, 6)  # channel c, multiplier m -> c * 2 + m
    check_op(K.depthwise_conv2d, lambda a, b: depthwise, x, dk, rtol=1e-4, grad_rtol=1e-3)
    want = np.einsum("bhwc,co->bhwo", depthwise, pk[0, 0])
    check_op(K.separable_conv2d, lambda a, b, c: want, x, dk, pk, rtol=1e-4, grad_rtol=1e-3)
    with pytest.raises(ValueError, match="strides"):
        K.separable_conv2d(tf.constant(x), tf.constant(dk), tf.constant(pk), strides=(1, 1, 1))


def test_pool2d_and_pool3d_match_numpy(rng):
    x = rng.normal(size=(2, 4, 6, 3))
    blocks = x.reshape(2, 2, 2, 3, 2, 3)
    np.testing.assert_allclose(K.pool2d(tf.constant(x), (2, 2), strides=(2, 2)).numpy(),
                               blocks.max(axis=(2, 4)))
    np.testing.assert_allclose(K.pool2d(tf.constant(x), (2, 2), strides=(2, 2), pool_mode="avg").numpy(),
                               blocks.mean(axis=(2, 4)), rtol=1e-6)
    first = K.pool2d(tf.constant(x.transpose(0, 3, 1, 2)), (2, 2), (2, 2), data_format="channels_first")
    np.testing.assert_allclose(first.numpy(), blocks.max(axis=(2, 4)).transpose(0, 3, 1, 2))
    v = rng.normal(size=(1, 4, 4, 2, 2))
    cubes = v.reshape(1, 2, 2, 2, 2, 1, 2, 2)
    np.testing.assert_allclose(K.pool3d(tf.constant(v), (2, 2, 2), strides=(2, 2, 2)).numpy(),
                               cubes.max(axis=(2, 4, 6)))
    np.testing.assert_allclose(K.pool3d(tf.constant(v), (2, 2, 2), (2, 2, 2), pool_mode="avg").numpy(),
                               cubes.mean(axis=(2, 4, 6)), rtol=1e-6)


@pytest.mark.parametrize("kwargs, match", [
    ({"pool_mode": "sum"}, "pooling mode"), ({"padding": "full"}, "padding"), ({"strides": (1,)}, "strides"),
    ({"data_format": "nhwc"}, "data_format"),
])
def test_pool2d_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        K.pool2d(tf.ones([1, 4, 4, 1]), (2, 2), **kwargs)


# -- padding and resizing -----------------------------------------------------------------------

def test_padding_functions_match_np_pad(rng):
    seq = rng.normal(size=(2, 3, 4))
    np.testing.assert_array_equal(K.temporal_padding(tf.constant(seq), (1, 2)).numpy(),
                                  np.pad(seq, ((0, 0), (1, 2), (0, 0))))
    img = rng.normal(size=(1, 2, 3, 2))
    pads = ((1, 0), (2, 1))
    np.testing.assert_array_equal(K.spatial_2d_padding(tf.constant(img), pads).numpy(),
                                  np.pad(img, ((0, 0), *pads, (0, 0))))
    np.testing.assert_array_equal(K.spatial_2d_padding(tf.constant(img), pads, "channels_first").numpy(),
                                  np.pad(img, ((0, 0), (0, 0), *pads)))
    vol = rng.normal(size=(1, 2, 2, 2, 1))
    pads3 = ((0, 1), (1, 1), (2, 0))
    np.testing.assert_array_equal(K.spatial_3d_padding(tf.constant(vol), pads3).numpy(),
                                  np.pad(vol, ((0, 0), *pads3, (0, 0))))
    np.testing.assert_array_equal(K.spatial_3d_padding(tf.constant(vol), pads3, "channels_first").numpy(),
                                  np.pad(vol, ((0, 0), (0, 0), *pads3)))
    with pytest.raises(ValueError, match="2 integers"):
        K.temporal_padding(tf.constant(seq), (1, 2, 3))
    with pytest.raises(ValueError, match="2 tuples"):
        K.spatial_2d_padding(tf.constant(img), ((1, 1),))
    with pytest.raises(ValueError, match="3 tuples"):
        K.spatial_3d_padding(tf.constant(vol), ((1, 1), (1, 1), 1))


def test_resize_images_nearest_repeats_pixels(rng):
    img = rng.normal(size=(2, 3, 2, 4)).astype(np.float32)
    got = K.resize_images(tf.constant(img), 2, 3, "channels_last")
    np.testing.assert_array_equal(got.numpy(), np.repeat(np.repeat(img, 2, axis=1), 3, axis=2))
    first = K.resize_images(tf.constant(img.transpose(0, 3, 1, 2)), 2, 3, "channels_first")
    np.testing.assert_array_equal(first.numpy(), np.repeat(np.repeat(img, 2, 1), 3, 2).transpose(0, 3, 1, 2))
    bilinear = K.resize_images(tf.constant(img), 2, 2, "channels_last", interpolation="bilinear")
    assert bilinear.shape == (2, 6, 4, 4)
    with pytest.raises(ValueError, match="data_format"):
        K.resize_images(tf.constant(img), 2, 2, None)
    with pytest.raises(ValueError, match="interpolation"):
        K.resize_images(tf.constant(img), 2, 2, "channels_last", interpolation="cubic")
    with pytest.raises(NotImplementedError, match="gaussian"):
        K.resize_images(tf.constant(img), 2, 2, "channels_last", interpolation="gaussian")


def test_resize_volumes_repeats_voxels(rng):
    vol = rng.normal(size=(1, 2, 3, 2, 2))
    want = np.repeat(np.repeat(np.repeat(vol, 2, 1), 1, 2), 3, 3)
    np.testing.assert_array_equal(K.resize_volumes(tf.constant(vol), 2, 1, 3, "channels_last").numpy(), want)
    first = np.moveaxis(vol, 4, 1)
    np.testing.assert_array_equal(K.resize_volumes(tf.constant(first), 2, 1, 3, "channels_first").numpy(),
                                  np.moveaxis(want, 4, 1))
    with pytest.raises(ValueError, match="data_format"):
        K.resize_volumes(tf.constant(vol), 1, 1, 1, "ndhwc")


# -- creation and Variables ----------------------------------------------------------------------

def test_constant_and_arange():
    c = K.constant(3, shape=(2, 2))
    assert c.dtype == tf.float32
    np.testing.assert_array_equal(c.numpy(), np.full((2, 2), 3.0))
    np.testing.assert_array_equal(K.arange(5).numpy(), np.arange(5))
    np.testing.assert_array_equal(K.arange(-3).numpy(), np.arange(0))
    np.testing.assert_array_equal(K.arange(2, 11, 3).numpy(), np.arange(2, 11, 3))
    got = K.arange(1, 4, dtype="float32")
    assert got.dtype == tf.float32
    np.testing.assert_array_equal(got.numpy(), np.arange(1, 4))
    assert K.arange(2.5).dtype == tf.float32  # a float range stays float even with dtype='int32'


def test_zeros_ones_eye_are_variables_unless_empty():
    z, o, e = K.zeros((2, 3)), K.ones((2,), dtype="int32"), K.eye(3, dtype="float64")
    assert all(isinstance(v, tf.Variable) for v in (z, o, e))
    np.testing.assert_array_equal(z.numpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(o.numpy(), np.ones(2, np.int32))
    assert o.dtype == tf.int32 and e.dtype == tf.float64
    np.testing.assert_array_equal(e.numpy(), np.eye(3))
    empty = K.zeros((0, 3))
    assert not isinstance(empty, tf.Variable) and empty.shape == (0, 3)
    np.testing.assert_array_equal(K.zeros_like(tf.constant([1, 2])).numpy(), [0, 0])
    assert K.ones_like(tf.constant([1, 2]), dtype="float32").dtype == tf.float32


def test_variable_get_set_and_updates():
    v = K.variable([[1, 2], [3, 4]], name="w")
    assert isinstance(v, tf.Variable) and v.dtype == tf.float32
    np.testing.assert_array_equal(K.get_value(v), [[1, 2], [3, 4]])
    K.set_value(v, np.full((2, 2), 2.5, np.float64))
    np.testing.assert_array_equal(K.get_value(v), np.full((2, 2), 2.5))
    i = tf.Variable(0)
    K.batch_set_value([(v, [[0, 1], [2, 3]]), (i, 7.9)])
    assert K.eval(i) == 7  # converted to the Variable's int32
    np.testing.assert_array_equal(K.batch_get_value([v])[0], [[0, 1], [2, 3]])
    np.testing.assert_array_equal(K.update(v, [[1.0, 1.0], [1.0, 1.0]]).numpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(K.update_add(v, [[1.0, 2.0], [3.0, 4.0]]).numpy(), [[2, 3], [4, 5]])
    np.testing.assert_array_equal(K.update_sub(v, [[2.0, 2.0], [2.0, 2.0]]).numpy(), [[0, 1], [2, 3]])
    assert K.get_value("not a tensor") == "not a tensor"
    with pytest.raises(AttributeError, match="Variables"):
        K.set_value(tf.constant(1.0), 2.0)


def test_moving_average_update_is_a_running_mean():
    v = tf.Variable([10.0, 20.0])
    K.moving_average_update(v, tf.constant([0.0, 10.0]), 0.9)
    want = 0.9 * np.array([10.0, 20.0]) + 0.1 * np.array([0.0, 10.0])
    np.testing.assert_allclose(v.numpy(), want, rtol=1e-6)


def test_set_value_changes_the_learning_rate_the_optimizer_uses():
    opt = tf.keras.optimizers.SGD(learning_rate=0.1)
    K.set_value(opt.learning_rate, 0.25)
    assert np.isclose(K.get_value(opt.learning_rate), 0.25)
    var = tf.Variable(2.0)
    opt.minimize(lambda: var * var, [var])  # gradient 4
    np.testing.assert_allclose(var.numpy(), 2.0 - 0.25 * 4.0, rtol=1e-6)


def test_set_value_on_a_compiled_models_learning_rate():
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="ones",
                                                                             use_bias=False)])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=1.0), loss="mse")
    K.set_value(model.optimizer.learning_rate, 0.05)
    model.fit(np.ones((1, 1)), np.zeros((1, 1)), epochs=1, verbose=0)  # d(w^2)/dw = 2 at w = 1
    np.testing.assert_allclose(K.get_value(model.layers[0].kernel), [[1.0 - 0.05 * 2.0]], rtol=1e-6)


# -- random -------------------------------------------------------------------------------------

def test_random_tensors_have_the_asked_distribution():
    u = K.random_uniform((20000,), 2.0, 3.0, seed=1).numpy()
    assert u.dtype == np.float32 and u.min() >= 2.0 and u.max() < 3.0 and abs(u.mean() - 2.5) < 0.02
    n = K.random_normal((20000,), mean=1.0, stddev=0.5, seed=2).numpy()
    assert abs(n.mean() - 1.0) < 0.02 and abs(n.std() - 0.5) < 0.02
    t = K.truncated_normal((20000,), stddev=2.0, seed=3).numpy()
    assert np.abs(t).max() <= 4.0
    b = K.random_bernoulli((20000,), p=0.3, seed=4).numpy()
    assert set(np.unique(b).tolist()) == {0.0, 1.0} and abs(b.mean() - 0.3) < 0.02
    assert K.random_bernoulli((3,), p=0.0, dtype="float64", seed=5).dtype == tf.float64
    assert K.random_uniform((3,), 0, 10, dtype="int32", seed=6).dtype == tf.int32


def test_random_variables():
    uv = K.random_uniform_variable((100, 3), -1.0, 1.0, seed=1)
    nv = K.random_normal_variable((2, 3), 0.0, 1.0, dtype="float64", seed=2)
    assert isinstance(uv, tf.Variable) and isinstance(nv, tf.Variable)
    assert uv.shape == (100, 3) and nv.dtype == tf.float64
    assert -1.0 <= uv.numpy().min() and uv.numpy().max() < 1.0


# -- control flow, gradients, names --------------------------------------------------------------

def test_switch_scalar_and_element_wise(rng):
    calls = []

    def then():
        calls.append("then")
        return tf.constant(1)

    assert int(K.switch(tf.constant(False), then, lambda: tf.constant(2))) == 2
    assert int(K.switch(tf.constant(3.0), then, tf.constant(2))) == 1
    cond = rng.integers(0, 2, size=(3, 1)).astype(bool)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    np.testing.assert_array_equal(K.switch(tf.constant(cond), tf.constant(a), tf.constant(b)).numpy(),
                                  np.where(cond, a, b))
    vec = np.array([True, False, True, False])
    np.testing.assert_array_equal(K.switch(tf.constant(vec), tf.constant(a), tf.constant(b)).numpy(),
                                  np.where(vec, a, b))  # rank 1: broadcast as tf.where does
    with pytest.raises(ValueError, match="Rank of `condition`"):
        K.switch(tf.constant([[True]]), tf.constant([1]), tf.constant([2]))


def test_map_fn_and_folds_match_python(rng):
    a = rng.normal(size=(4, 3))
    np.testing.assert_allclose(K.map_fn(lambda r: tf.reduce_max(r), tf.constant(a)).numpy(), a.max(axis=1))
    digits = tf.constant([1, 2, 3, 4])
    assert int(K.foldl(lambda acc, d: acc * 10 + d, digits)) == 1234
    assert int(K.foldr(lambda acc, d: acc * 10 + d, digits)) == 4321
    started = K.foldl(lambda acc, d: acc - d, tf.constant([1.0, 2.0]), initializer=tf.constant(10.0))
    assert float(started) == 7.0


def test_stop_gradient_and_gradients():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x * K.stop_gradient(x))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 2.0])
    stopped = K.stop_gradient([tf.constant(1.0), tf.constant(2.0)])
    assert isinstance(stopped, map) and [float(s) for s in stopped] == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="GradientTape"):
        K.gradients(x * 2, [x])


def test_name_scope_get_uid_and_clear_session():
    with K.name_scope("outer"):
        assert tf.get_current_name_scope() == "outer"
    K.clear_session()
    assert [K.get_uid("thing"), K.get_uid("thing"), K.get_uid()] == [1, 2, 1]
    assert K.get_uid("dense") == 1
    assert tf.keras.layers.Dense(1).name == "dense_1"  # Keras's layer names share the counter
    K.clear_session()
    assert K.get_uid("thing") == 1
    K.clear_session()


def test_tensor_kinds_and_sparse_values():
    assert K.is_keras_tensor(tf.keras.Input((2,))) and not K.is_keras_tensor(tf.zeros([2]))
    sp = tf.SparseTensor(indices=[[0, 1], [1, 0]], values=[5.0, 6.0], dense_shape=[2, 2])
    dense = np.array([[0.0, 5.0], [6.0, 0.0]])
    assert K.is_sparse(sp) and not K.is_sparse(tf.zeros([2]))
    np.testing.assert_array_equal(K.to_dense(sp).numpy(), dense)
    np.testing.assert_array_equal(K.eval(sp), dense)
    joined = K.concatenate([sp, sp], axis=-1)
    assert K.is_sparse(joined)
    np.testing.assert_array_equal(K.to_dense(joined).numpy(), np.concatenate([dense, dense], axis=1))
    mixed = K.concatenate([sp, tf.ones([2, 1])])
    np.testing.assert_array_equal(mixed.numpy(), np.concatenate([dense, np.ones((2, 1))], axis=1))


def test_ctc_label_dense_to_sparse_keeps_each_rows_labels(rng):
    labels = rng.integers(1, 9, size=(3, 4))
    lengths = np.array([4, 0, 2])
    st = K.ctc_label_dense_to_sparse(tf.constant(labels), tf.constant(lengths))
    mask = np.arange(4)[None, :] < lengths[:, None]
    np.testing.assert_array_equal(st.indices.numpy(), np.argwhere(mask))
    np.testing.assert_array_equal(st.values.numpy(), labels[mask])
    np.testing.assert_array_equal(st.dense_shape.numpy(), [3, 4])


# -- rnn ------------------------------------------------------------------------------------------

def _step(inputs_t, states):
    total = tf.tanh(states[0] * 0.5 + inputs_t)
    return total * 2.0, [total]


def _np_rnn(inputs, state, mask=None, backwards=False, zero_output=False, lengths=None):
    """Keras's rnn in NumPy for ``_step``: per-step outputs (in iteration order), last output, state."""
    steps = list(range(inputs.shape[1]))
    if backwards:
        steps = steps[::-1]
    outputs, prev = [], np.zeros_like(state)
    for t, index in enumerate(steps):
        new_state = np.tanh(state * 0.5 + inputs[:, index])
        out = new_state * 2.0
        if mask is not None or lengths is not None:
            if mask is not None:
                keep = mask[:, index][:, None]
            elif backwards:
                keep = (lengths.max() - 1 - lengths < t)[:, None]
            else:
                keep = (lengths > t)[:, None]
            out = np.where(keep, out, 0.0 if zero_output else prev)
            new_state = np.where(keep, new_state, state)
        outputs.append(out)
        prev, state = out, new_state
    return np.stack(outputs, axis=1), outputs[-1], state


@pytest.mark.parametrize("unroll", [False, True])
@pytest.mark.parametrize("backwards", [False, True])
@pytest.mark.parametrize("masked, zero_output", [(False, False), (True, False), (True, True)])
def test_rnn_matches_a_numpy_loop(rng, unroll, backwards, masked, zero_output):
    inputs, state = rng.normal(size=(3, 4, 2)), rng.normal(size=(3, 2))
    mask = rng.integers(0, 2, size=(3, 4)).astype(bool) if masked else None
    last, outputs, states = K.rnn(_step, tf.constant(inputs), [tf.constant(state)], go_backwards=backwards,
                                  mask=None if mask is None else tf.constant(mask), unroll=unroll,
                                  zero_output_for_mask=zero_output)
    want_outputs, want_last, want_state = _np_rnn(inputs, state, mask, backwards, zero_output)
    np.testing.assert_allclose(outputs.numpy(), want_outputs, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(last.numpy(), want_last, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(states[0].numpy(), want_state, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("backwards", [False, True])
def test_rnn_input_length_masks_the_later_steps(rng, backwards):
    inputs, state = rng.normal(size=(3, 4, 2)), rng.normal(size=(3, 2))
    lengths = np.array([4, 1, 3])
    last, outputs, states = K.rnn(_step, tf.constant(inputs), [tf.constant(state)], go_backwards=backwards,
                                  input_length=tf.constant(lengths))
    want_outputs, want_last, want_state = _np_rnn(inputs, state, backwards=backwards, lengths=lengths)
    np.testing.assert_allclose(outputs.numpy(), want_outputs, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(states[0].numpy(), want_state, rtol=1e-6, atol=1e-7)


def test_rnn_time_major_last_only_constants_and_gradients(rng):
    inputs, state = rng.normal(size=(3, 4, 2)), rng.normal(size=(3, 2))
    want_outputs, want_last, _ = _np_rnn(inputs, state)
    _, major, _ = K.rnn(_step, tf.constant(inputs.transpose(1, 0, 2)), [tf.constant(state)], time_major=True)
    np.testing.assert_allclose(major.numpy(), want_outputs.transpose(1, 0, 2), rtol=1e-6)
    _, only, _ = K.rnn(_step, tf.constant(inputs), [tf.constant(state)], return_all_outputs=False)
    np.testing.assert_allclose(only.numpy(), want_last[:, None], rtol=1e-6)
    _, with_constant, _ = K.rnn(lambda x, s: (x + s[1], [s[0]]), tf.constant(inputs), [tf.constant(state)],
                                constants=[tf.constant(10.0, tf.float64)])
    np.testing.assert_allclose(with_constant.numpy(), inputs + 10.0)
    check_gradient(lambda x: K.rnn(_step, x, [tf.zeros([3, 2], tf.float64)])[1], inputs)
    with pytest.raises(ValueError, match="rank 3"):
        K.rnn(_step, tf.ones([2, 3]), [tf.zeros([2, 3])])


# -- settings and dtypes -------------------------------------------------------------------------

def test_settings():
    assert K.backend() == "tensorflow" and K.image_data_format() == "channels_last"
    K.set_floatx("float32")
    K.set_image_data_format("channels_last")
    with pytest.raises(ValueError, match="floatx"):
        K.set_floatx("int8")
    with pytest.raises(NotImplementedError, match="float32"):
        K.set_floatx("float64")
    assert K.floatx() == "float32"
    with pytest.raises(ValueError, match="data_format"):
        K.set_image_data_format("nchw")
    with pytest.raises(NotImplementedError, match="channels_first"):
        K.set_image_data_format("channels_first")
    assert K.image_data_format() == "channels_last"


def test_standardize_dtype_and_predicates():
    assert [K.standardize_dtype(d) for d in (tf.float16, np.int8, np.dtype("uint8"), int, float, bool, None,
                                             "complex64", jnp.bfloat16)] == \
        ["float16", "int8", "uint8", "int64", "float32", "bool", "float32", "complex64", "bfloat16"]
    with pytest.raises(ValueError, match="Invalid dtype"):
        K.standardize_dtype("float7")
    with pytest.raises(ValueError, match="Invalid dtype"):
        K.standardize_dtype([1])
    assert K.is_float_dtype("bfloat16") and not K.is_float_dtype(tf.int32)
    assert K.is_int_dtype("uint16") and not K.is_int_dtype(float)
    assert K.dtype(tf.constant([1, 2])) == "int32" and K.dtype(tf.Variable(1.0)) == "float32"
    assert K.cast(tf.constant([1.7]), "int32").dtype == tf.int32
    cast = K.cast_to_floatx([1, 2])
    assert isinstance(cast, np.ndarray) and cast.dtype == np.float32
    assert K.cast_to_floatx(tf.constant([1, 2])).dtype == tf.float32


_STRONG = ["bool", "uint8", "uint16", "uint32", "int8", "int16", "int32", "int64", "bfloat16", "float16",
           "float32", "float64", "complex64"]


@pytest.mark.parametrize("a, b", list(itertools.combinations_with_replacement(_STRONG, 2)))
def test_result_type_follows_jax_promotion(a, b):
    want = str(jnp.promote_types(a, b))  # Keras adapted JAX's lattice; JAX promotes 64-bit ints to floats
    if want == "float64" and "float64" not in (a, b):
        want = "float32"  # ... its weak float, which Keras resolves at floatx's precision
    want = {"complex128": "complex64"}.get(want, want)  # Keras's TF backend keeps 64-bit, but not complex128
    assert K.result_type(a, b) == want


def test_result_type_weak_python_types_and_documented_values():
    assert K.result_type("int32", "float32") == "float32"  # Keras's docstring examples
    assert K.result_type("bfloat16", int) == "bfloat16"
    assert [K.result_type("int8", int), K.result_type("float16", float), K.result_type(int, float),
            K.result_type(int), K.result_type(), K.result_type(bool, int)] == \
        ["int8", "float16", "float32", "int32", "float32", "int32"]
    with pytest.raises(ValueError, match="float8"):
        K.result_type("float8_e4m3fn", "float32")

"""Tests of `companion.nn`: each op against a NumPy formula, gradients against finite differences."""

import itertools
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf
import companion.nn as nn
from companion._ops import _nn_pooling as nn_pooling
from companion._ops import _random
from companion._ops._nn_losses import _sparse_softmax_cross_entropy
from tests.checks import check_gradient, check_op

# -- NumPy references ------------------------------------------------------------------------

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
_erf = np.vectorize(math.erf)


def np_sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def np_gelu(x, approximate=False):
    if approximate:
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + _erf(x / np.sqrt(2)))


def same_pads(size, k, stride, dilation=1):
    """TensorFlow's SAME padding (before, after) for one spatial dimension."""
    span = (k - 1) * dilation + 1
    out = -(-size // stride)
    total = max((out - 1) * stride + span - size, 0)
    return total // 2, total - total // 2


def np_conv(x, w, strides, pads, dilations=None, groups=1):
    """Channels-last N-D cross-correlation by explicit loops (x: N...C, w: ...IO)."""
    n_sp = x.ndim - 2
    dilations = dilations or (1,) * n_sp
    x = np.pad(x, [(0, 0)] + list(pads) + [(0, 0)])
    k = w.shape[:n_sp]
    spans = [(k[i] - 1) * dilations[i] + 1 for i in range(n_sp)]
    out_sp = [(x.shape[1 + i] - spans[i]) // strides[i] + 1 for i in range(n_sp)]
    c_in, c_out = w.shape[-2:]
    out = np.zeros((x.shape[0], *out_sp, c_out), x.dtype)
    per_group = c_out // groups
    for pos in np.ndindex(*out_sp):
        for tap in np.ndindex(*k):
            idx = tuple(pos[i] * strides[i] + tap[i] * dilations[i] for i in range(n_sp))
            for g in range(groups):
                patch = x[(slice(None), *idx, slice(g * c_in, (g + 1) * c_in))]
                cols = slice(g * per_group, (g + 1) * per_group)
                out[(slice(None), *pos, cols)] += patch @ w[tap][:, cols]
    return out


def np_pool(x, ksize, strides, padding, how):
    """Channels-last N-D max/avg pooling over valid elements only (TF's SAME behaviour)."""
    n_sp = x.ndim - 2
    if padding == "SAME":
        pads = [same_pads(x.shape[1 + i], ksize[i], strides[i]) for i in range(n_sp)]
    else:
        pads = [(0, 0)] * n_sp
    out_sp = [(x.shape[1 + i] + sum(pads[i]) - ksize[i]) // strides[i] + 1 for i in range(n_sp)]
    out = np.zeros((x.shape[0], *out_sp, x.shape[-1]), x.dtype)
    for pos in np.ndindex(*out_sp):
        window = tuple(slice(max(pos[i] * strides[i] - pads[i][0], 0),
                             pos[i] * strides[i] - pads[i][0] + ksize[i]) for i in range(n_sp))
        patch = x[(slice(None), *window, slice(None))]
        axes = tuple(range(1, 1 + n_sp))
        out[(slice(None), *pos, slice(None))] = patch.max(axes) if how == "max" else patch.mean(axes)
    return out


def away_from(x, points, margin=0.05):
    """Moves elements of ``x`` that are within ``margin`` of a kink, so finite differences work."""
    x = x.copy()
    for p in points:
        near = np.abs(x - p) < margin
        x[near] = p + np.where(x[near] >= p, margin, -margin) * 2
    return x


@pytest.fixture
def x64(rng):
    return rng.normal(size=(3, 4)) * 2


# -- activations -------------------------------------------------------------------------------

ACTIVATIONS = [
    (nn.relu, lambda x: np.maximum(x, 0)),
    (nn.relu6, lambda x: np.clip(x, 0, 6)),
    (nn.elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    (nn.selu, lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(x))),
    (nn.gelu, np_gelu),
    (nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    (nn.silu, lambda x: x * np_sigmoid(x)),
    (nn.swish, lambda x: x * np_sigmoid(x)),
    (nn.sigmoid, np_sigmoid),
    (nn.tanh, np.tanh),
    (nn.softplus, lambda x: np.log1p(np.exp(x))),
    (nn.softsign, lambda x: x / (1 + np.abs(x))),
]


@pytest.mark.parametrize("fn, reference", ACTIVATIONS, ids=[f.__name__ for f, _ in ACTIVATIONS])
def test_activation_matches_numpy_and_finite_differences(fn, reference, rng):
    x = away_from(rng.normal(size=(3, 4)) * 4, [0.0, 6.0])
    x[0, 0] = 7.0  # above relu6's cap
    check_op(fn, reference, x)


@pytest.mark.parametrize("fn", [nn.relu, nn.elu, nn.gelu, nn.softmax])
def test_activation_keeps_float32(fn):
    assert fn(np.array([[-1.0, 2.0]], np.float32)).dtype == tf.float32


def test_relu_accepts_integers():
    check_op(nn.relu, lambda x: np.maximum(x, 0), np.array([-3, 0, 5], np.int32), grad=False)


def test_relu_gradient_is_zero_at_zero():
    x = tf.constant([0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nn.relu(x)
    np.testing.assert_array_equal(tape.gradient(y, x), [0.0, 1.0])


@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_both_forms(approximate, x64):
    check_op(nn.gelu, np_gelu, x64, approximate=approximate)


def test_leaky_relu_alpha(x64):
    check_op(nn.leaky_relu, lambda x, alpha: np.where(x > 0, x, alpha * x), away_from(x64, [0.0]),
             alpha=0.05)


def test_silu_beta(x64):
    check_op(nn.silu, lambda x, beta: x * np_sigmoid(beta * x), x64, beta=2.0)


@pytest.mark.parametrize("axis", [None, -1, 0, 1])
def test_softmax_and_log_softmax(axis, x64):
    ref_axis = -1 if axis is None else axis
    check_op(nn.log_softmax, lambda x, axis: np_log_softmax(x, ref_axis), x64, axis=axis)
    check_op(nn.softmax, lambda x, axis: np.exp(np_log_softmax(x, ref_axis)), x64, axis=axis)


@pytest.mark.parametrize("axis", [0, -1])
def test_softmax_gradients_round_as_tensorflow(axis):
    # TF's SoftmaxGrad (g - sum(g * y)) * y and LogSoftmaxGrad g - sum(g) * exp(y), in that order
    x = np.array([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]], np.float32)
    g = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    cases = [(nn.softmax, lambda y: (g - np.sum(g * y, axis, keepdims=True)) * y,
              lambda y: y - y * np.sum(y, axis, keepdims=True)),
             (nn.log_softmax, lambda y: g - np.sum(g, axis, keepdims=True) * np.exp(y),
              lambda y: np.ones_like(y) - np.sum(np.exp(y), axis, keepdims=True))]
    for fn, tf_grad, tf_jvp in cases:
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = fn(xt, axis=axis)
        np.testing.assert_allclose(tape.gradient(y, xt, output_gradients=tf.constant(g)),
                                   tf_grad(y.numpy()), rtol=1e-6, atol=1e-6)
        with tf.autodiff.ForwardAccumulator(xt, tf.ones_like(xt)) as acc:  # forward mode still works
            y = fn(xt, axis=axis)
        np.testing.assert_allclose(acc.jvp(y), tf_jvp(y.numpy()), rtol=1e-5, atol=1e-6)
    xt = tf.constant([[1.0, 2.0], [3.0, 4.0]])  # rows whose softmax sums to exactly 1.0
    with tf.GradientTape() as tape:
        tape.watch(xt)
        total = tf.reduce_sum(nn.softmax(xt))
    assert np.all(tape.gradient(total, xt).numpy() == 0)  # exactly, as TF (JAX's rule: -4e-8)


def test_softmax_is_stable_for_large_logits():
    np.testing.assert_allclose(nn.softmax([1000.0, 1000.0]), [0.5, 0.5])


@pytest.mark.parametrize("fn", [nn.relu6, nn.elu, nn.selu, nn.gelu, nn.leaky_relu, nn.silu])
def test_float_activations_reject_integers(fn):
    with pytest.raises(TypeError, match=r"needs a floating-point tensor .*Received dtype int32"):
        fn([1, 2])


def test_relu_rejects_bool():
    with pytest.raises(TypeError, match="relu needs a real numeric tensor. Received dtype bool"):
        nn.relu([True, False])


def test_softmax_errors():
    with pytest.raises(tf.InvalidArgumentError, match=r"softmax: axis=2 is out of range .*rank 2"):
        nn.softmax(np.zeros((2, 3)), axis=2)
    with pytest.raises(ValueError, match="log_softmax needs logits of rank 1 or more"):
        nn.log_softmax(1.0)
    with pytest.raises(TypeError, match="softmax needs a floating-point tensor for `logits`"):
        nn.softmax([1, 2])


# -- losses ------------------------------------------------------------------------------------

def test_sigmoid_cross_entropy(rng):
    labels = rng.uniform(size=(3, 4))
    logits = rng.normal(size=(3, 4)) * 3

    def reference(z, x):
        return -z * np.log(np_sigmoid(x)) - (1 - z) * np.log(1 - np_sigmoid(x))

    check_op(lambda z, x: nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), reference,
             labels, logits)


def test_sigmoid_cross_entropy_is_stable():
    loss = nn.sigmoid_cross_entropy_with_logits(labels=[0.0, 1.0, 1.0], logits=[1000.0, -1000.0, 1000.0])
    np.testing.assert_allclose(loss, [1000.0, 1000.0, 0.0])


def test_sigmoid_cross_entropy_gradient_at_zero():
    logits = tf.constant([0.0])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0]), logits=logits)
    np.testing.assert_allclose(tape.gradient(loss, logits), [-0.5])  # sigmoid(0) - label


def test_sigmoid_cross_entropy_errors():
    with pytest.raises(ValueError, match=r"must have the same shape. Received labels of shape \(2,\) "
                                         r"and logits of shape \(3,\)"):
        nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="must have the same dtype. Received labels of dtype float64 "
                                         "and logits of dtype float32"):
        nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros([2], tf.float64), logits=tf.zeros([2]))
    with pytest.raises(ValueError, match="needs both `labels` and `logits`"):
        nn.sigmoid_cross_entropy_with_logits(logits=[1.0])


def test_sigmoid_cross_entropy_python_labels_adopt_logits_dtype():
    loss = nn.sigmoid_cross_entropy_with_logits(labels=[1, 0], logits=np.zeros(2))
    assert loss.dtype == tf.float64


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_cross_entropy(axis, rng):
    labels = rng.dirichlet(np.ones(4), size=3)
    labels = labels if axis == -1 else labels.T.copy()
    logits = rng.normal(size=labels.shape)

    def reference(z, x, axis):
        return -(z * np_log_softmax(x, axis)).sum(axis=axis)

    check_op(nn.softmax_cross_entropy_with_logits, reference, labels, logits, axis=axis)


def test_softmax_cross_entropy_errors():
    with pytest.raises(ValueError, match="must have the same shape"):
        nn.softmax_cross_entropy_with_logits(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="must have the same dtype"):
        nn.softmax_cross_entropy_with_logits(tf.zeros([3]), tf.zeros([3], tf.float64))
    with pytest.raises(ValueError, match="needs logits of rank 1 or more"):
        nn.softmax_cross_entropy_with_logits(1.0, 1.0)
    with pytest.raises(tf.InvalidArgumentError, match="axis=1 is out of range"):
        nn.softmax_cross_entropy_with_logits([0.0, 1.0], [0.0, 1.0], axis=1)


@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_softmax_cross_entropy(label_dtype, rng):
    logits = rng.normal(size=(2, 3, 5))
    labels = rng.integers(0, 5, size=(2, 3)).astype(label_dtype)

    def reference(z, x):
        return -np.take_along_axis(np_log_softmax(x), z[..., None], axis=-1)[..., 0]

    check_op(lambda z, x: nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x), reference,
             labels, logits)


def test_sparse_softmax_cross_entropy_errors():
    op_name = "sparse_softmax_cross_entropy_with_logits"
    with pytest.raises(ValueError, match=rf"{op_name}: labels must have the shape of logits without "
                                         r"its last \(class\) dimension, \(2,\)"):
        nn.sparse_softmax_cross_entropy_with_logits([0, 1, 2], np.zeros((2, 3)))
    with pytest.raises(TypeError, match="labels must be an int32 or int64 tensor"):
        nn.sparse_softmax_cross_entropy_with_logits([0.0, 1.0], np.zeros((2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match=r"label value of 3 which is outside the valid "
                                                      r"range of \[0, 3\)"):
        nn.sparse_softmax_cross_entropy_with_logits([0, 3], np.zeros((2, 3)))
    with pytest.raises(TypeError, match="needs a floating-point tensor for `logits`"):
        nn.sparse_softmax_cross_entropy_with_logits([0], [[1, 2]])


def test_sparse_softmax_cross_entropy_bad_label_gives_nan_when_traced():
    loss = _sparse_softmax_cross_entropy.fn(np.array([0, 7]), np.zeros((2, 3)))
    assert np.isfinite(loss[0]) and np.isnan(loss[1])


def test_l2_loss(x64):
    check_op(nn.l2_loss, lambda t: np.sum(t ** 2) / 2, x64)


def test_l2_loss_rejects_integers():
    with pytest.raises(TypeError, match="l2_loss needs a floating-point tensor for `t`"):
        nn.l2_loss([1, 2])


# -- normalization -----------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [None, 0, -1, [0, 1]])
def test_l2_normalize(axis, x64):
    ref_axis = None if axis is None else tuple(np.atleast_1d(axis))

    def reference(x, axis):
        return x / np.sqrt(np.sum(x ** 2, axis=ref_axis, keepdims=True))

    check_op(nn.l2_normalize, reference, x64, axis=axis)


def test_l2_normalize_rounds_as_tf():
    # TF 2.21 prints [0.45584232 0.5698029 0.6837635] (x times 1/sqrt, each rounded), eagerly and traced
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    expected = np.float32([[0.26726124, 0.5345225, 0.8017837], [0.45584232, 0.5698029, 0.6837635]])
    np.testing.assert_array_equal(nn.l2_normalize(x, axis=1).numpy(), expected)
    np.testing.assert_array_equal(tf.function(lambda t: nn.l2_normalize(t, axis=1))(x).numpy(), expected)


def test_l2_normalize_of_zeros_is_zero():
    np.testing.assert_array_equal(nn.l2_normalize(np.zeros(3), axis=0), np.zeros(3))


@pytest.mark.parametrize("axes, keepdims", [([0], False), ([0, 2], True), (1, False), ([-1], True)])
def test_moments(axes, keepdims, rng):
    x = rng.normal(size=(3, 4, 2))
    ref_axes = tuple(np.atleast_1d(axes))
    mean_ref = lambda x, **p: x.mean(axis=ref_axes, keepdims=keepdims)  # noqa: E731
    var_ref = lambda x, **p: x.var(axis=ref_axes, keepdims=keepdims)  # noqa: E731
    mean, variance = nn.moments(tf.constant(x), axes, keepdims=keepdims)
    np.testing.assert_allclose(mean, mean_ref(x))
    np.testing.assert_allclose(variance, var_ref(x))
    check_gradient(lambda t: nn.moments(t, axes, keepdims=keepdims)[0], x)
    check_gradient(lambda t: nn.moments(t, axes, keepdims=keepdims)[1], x)


def test_moments_float16_accumulates_in_float32():
    x = np.full(4096, 100.0, np.float16) + np.tile(np.array([-1, 1], np.float16), 2048)
    mean, variance = nn.moments(tf.constant(x), axes=[0])
    assert mean.dtype == tf.float16 and variance.dtype == tf.float16
    np.testing.assert_allclose([float(mean), float(variance)], [100.0, 1.0], rtol=1e-3)


def test_moments_errors():
    with pytest.raises(ValueError, match="moments needs `axes`"):
        nn.moments(np.zeros(3), None)
    with pytest.raises(tf.InvalidArgumentError, match=r"moments: axis 2 is out of range .*rank 2"):
        nn.moments(np.zeros((2, 2)), [2])
    with pytest.raises(TypeError, match="moments needs a floating-point tensor for `x`"):
        nn.moments([1, 2], [0])


def np_batch_norm(x, mean, variance, offset=None, scale=None, variance_epsilon=1e-3):
    y = (x - mean) / np.sqrt(variance + variance_epsilon)
    y = y if scale is None else y * scale
    return y if offset is None else y + offset


def test_batch_normalization(rng):
    x = rng.normal(size=(4, 3))
    mean, offset, scale = rng.normal(size=(3, 3))
    variance = rng.uniform(0.5, 2, size=3)
    check_op(lambda *a: nn.batch_normalization(*a, variance_epsilon=1e-3),
             lambda *a: np_batch_norm(*a, variance_epsilon=1e-3), x, mean, variance, offset, scale)


@pytest.mark.parametrize("with_offset, with_scale", [(False, False), (True, False), (False, True)])
def test_batch_normalization_without_offset_or_scale(with_offset, with_scale, rng):
    x, mean, offset, scale = rng.normal(size=(4, 2, 3))
    variance = rng.uniform(0.5, 2, size=(2, 3))
    offset = offset if with_offset else None
    scale = scale if with_scale else None
    check_op(lambda x, m, v: nn.batch_normalization(x, m, v, offset, scale, 0.01),
             lambda x, m, v: np_batch_norm(x, m, v, offset, scale, 0.01), x, mean, variance)


def test_batch_normalization_errors():
    x = np.zeros((2, 3))
    with pytest.raises(tf.InvalidArgumentError, match="`variance` must have the dtype of x"):
        nn.batch_normalization(x, np.zeros(3), tf.ones([3], tf.float32), None, None, 1e-3)
    with pytest.raises(ValueError, match=r"`mean` of shape \(2,\) does not broadcast against x of "
                                         r"shape \(2, 3\)"):
        nn.batch_normalization(x, np.zeros(2), np.ones(3), None, None, 1e-3)


@pytest.mark.parametrize("data_format, shape, channel_axis", [
    (None, (2, 3), -1), ("NHWC", (2, 2, 2, 3), -1), ("NCHW", (2, 3, 2, 2), 1), ("NC", (2, 3), 1)])
def test_bias_add(data_format, shape, channel_axis, rng):
    value = rng.normal(size=shape)
    bias = rng.normal(size=3)

    def reference(v, b, data_format):
        return v + b.reshape((3,) + (1,) * (v.ndim - 1 - channel_axis % v.ndim))

    check_op(nn.bias_add, reference, value, bias, data_format=data_format)


def test_bias_add_errors():
    with pytest.raises(tf.InvalidArgumentError, match=r"must provide as many biases as the channel "
                                                      r"dimension of value \(3\)"):
        nn.bias_add(np.zeros((2, 3)), np.zeros(2))
    with pytest.raises(ValueError, match=r"bias_add: bias must be 1-D. Received a bias of shape \(1, 3\)"):
        nn.bias_add(np.zeros((2, 3)), np.zeros((1, 3)))
    with pytest.raises(ValueError, match="value must have rank 2 or more"):
        nn.bias_add(np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="data_format must be None, 'N...C'"):
        nn.bias_add(np.zeros((2, 3)), np.zeros(3), data_format="HWCN")
    with pytest.raises(tf.InvalidArgumentError, match="cannot compute bias_add between tensors of "
                                                      "dtypes float64 and float32"):
        nn.bias_add(tf.zeros([2, 3], tf.float64), tf.zeros([3]))


# -- convolution -------------------------------------------------------------------------------

CONV_CASES = [  # strides, padding, dilations
    (1, "VALID", None), (1, "SAME", None), (2, "SAME", None), ([1, 2, 1, 1], "VALID", None),
    ([2, 1], "SAME", None), (1, "SAME", 2), (1, "VALID", [1, 2]), (1, [[0, 0], [1, 0], [2, 1], [0, 0]], None)]


def _conv_reference(x, w, strides, padding, dilations, n_sp=2):
    strides = _spatial(strides, n_sp)
    dilations = _spatial(1 if dilations is None else dilations, n_sp)
    if padding == "SAME":
        pads = [same_pads(x.shape[1 + i], w.shape[i], strides[i], dilations[i]) for i in range(n_sp)]
    elif padding == "VALID":
        pads = [(0, 0)] * n_sp
    else:
        pads = [tuple(p) for p in padding[1:-1]]
    return np_conv(x, w, strides, pads, dilations)


def _spatial(value, n_sp):
    values = [value] if isinstance(value, int) else list(value)
    values = values[1:-1] if len(values) == n_sp + 2 else values
    return tuple(values * n_sp if len(values) == 1 else values)


@pytest.mark.parametrize("strides, padding, dilations", CONV_CASES)
def test_conv2d_matches_loops_and_finite_differences(strides, padding, dilations, rng):
    x = rng.normal(size=(2, 5, 6, 2))
    w = rng.normal(size=(3, 2, 2, 3))
    check_op(lambda x, w: nn.conv2d(x, w, strides, padding, dilations=dilations),
             lambda x, w: _conv_reference(x, w, strides, padding, dilations), x, w, grad=False)
    check_gradient(lambda x, w: nn.conv2d(x, w, strides, padding, dilations=dilations),
                   x[:1, :4, :4], w[:2])


def test_conv2d_nchw(rng):
    x = rng.normal(size=(2, 2, 5, 5))
    w = rng.normal(size=(3, 3, 2, 4))
    got = nn.conv2d(x, w, strides=[1, 1, 2, 2], padding="SAME", data_format="NCHW")
    want = _conv_reference(x.transpose(0, 2, 3, 1), w, 2, "SAME", None).transpose(0, 3, 1, 2)
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_conv2d_grouped(rng):
    x = rng.normal(size=(1, 4, 4, 4))
    w = rng.normal(size=(2, 2, 2, 6))
    check_op(lambda x, w: nn.conv2d(x, w, 1, "VALID"),
             lambda x, w: np_conv(x, w, (1, 1), [(0, 0)] * 2, groups=2), x, w, grad=False)


def test_conv2d_float32(rng):
    x = rng.normal(size=(1, 4, 4, 1)).astype(np.float32)
    w = rng.normal(size=(2, 2, 1, 1)).astype(np.float32)
    got = nn.conv2d(x, w, 1, "VALID")
    assert got.dtype == tf.float32
    want = _conv_reference(x, w, 1, "VALID", None)
    np.testing.assert_allclose(got, want, rtol=5e-3, atol=5e-3)  # GPUs may use TF32, as TensorFlow does


def test_conv1d_conv3d_and_convolution(rng):
    x1, w1 = rng.normal(size=(2, 7, 2)), rng.normal(size=(3, 2, 3))
    check_op(lambda x, w: nn.conv1d(x, w, 2, "SAME"),
             lambda x, w: _conv_reference(x, w, 2, "SAME", None, n_sp=1), x1, w1)
    x3, w3 = rng.normal(size=(1, 3, 4, 3, 2)), rng.normal(size=(2, 2, 2, 2, 2))
    check_op(lambda x, w: nn.conv3d(x, w, 1, "VALID"),
             lambda x, w: _conv_reference(x, w, 1, "VALID", None, n_sp=3), x3, w3, grad=False)
    check_op(lambda x, w: nn.convolution(x, w, padding="SAME"),
             lambda x, w: _conv_reference(x, w, 1, "SAME", None, n_sp=3), x3, w3, grad=False)


def test_conv2d_errors():
    x, w = np.zeros((1, 4, 4, 3)), np.zeros((2, 2, 2, 1))
    with pytest.raises(tf.InvalidArgumentError, match="the input has 3 channels but the filters expect 2"):
        nn.conv2d(x, w, 1, "VALID")
    with pytest.raises(tf.InvalidArgumentError, match="needs out_channels divisible by 3"):
        nn.conv2d(x, np.zeros((2, 2, 1, 2)), 1, "VALID")
    w = np.zeros((2, 2, 3, 1))
    with pytest.raises(ValueError, match="padding must be 'SAME', 'VALID' or a list of 4"):
        nn.conv2d(x, w, 1, "FULL")
    with pytest.raises(ValueError, match="padding must be 'SAME', 'VALID' or a list of 4"):
        nn.conv2d(x, w, 1, [[1, 1], [1, 1], [1, 1], [0, 0]])
    with pytest.raises(ValueError, match=r"`strides` must be 1 in the batch and channel dimensions. "
                                         r"Received: strides=\[2, 1, 1, 1\]"):
        nn.conv2d(x, w, [2, 1, 1, 1], "VALID")
    with pytest.raises(ValueError, match="`dilations` must be a positive int or a list of 1, 2 or 4"):
        nn.conv2d(x, w, 1, "VALID", dilations=[1, 1, 1])
    with pytest.raises(ValueError, match=r"conv2d: `input` must have rank 4. Received a tensor of shape "
                                         r"\(4, 4, 3\)"):
        nn.conv2d(x[0], w, 1, "VALID")
    with pytest.raises(ValueError, match="data_format must be 'NHWC' or 'NCHW'"):
        nn.conv2d(x, w, 1, "VALID", data_format="NWHC")
    message = "cannot compute conv2d between tensors of dtypes float64"
    with pytest.raises(tf.InvalidArgumentError, match=message):
        nn.conv2d(tf.constant(x), tf.constant(w.astype(np.float32)), 1, "VALID")
    with pytest.raises(TypeError, match="conv2d needs a floating-point tensor for `input`"):
        nn.conv2d(x.astype(np.int32), w.astype(np.int32), 1, "VALID")
    with pytest.raises(ValueError, match="convolution: `input` must have rank 3 or 4 or 5"):
        nn.convolution(np.zeros((2, 3)), np.zeros((2, 3)))


# -- pooling -----------------------------------------------------------------------------------

POOL_CASES = list(itertools.product([2, [3, 2], [1, 2, 2, 1]], [1, 2, [2, 3]], ["VALID", "SAME"]))


@pytest.mark.parametrize("ksize, strides, padding", POOL_CASES)
def test_pool2d_matches_numpy(ksize, strides, padding, rng):
    x = rng.normal(size=(2, 5, 7, 3))
    k, s = _spatial(ksize, 2), _spatial(strides, 2)
    check_op(lambda x: nn.max_pool2d(x, ksize, strides, padding),
             lambda x: np_pool(x, k, s, padding, "max"), x, grad=False)
    check_op(lambda x: nn.avg_pool2d(x, ksize, strides, padding),
             lambda x: np_pool(x, k, s, padding, "avg"), x, grad=False)


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
@pytest.mark.parametrize("pool", [nn.max_pool2d, nn.avg_pool2d])
def test_pool2d_gradients(pool, padding, rng):
    check_gradient(lambda x: pool(x, 2, [2, 1], padding), rng.normal(size=(1, 3, 4, 2)))


def _reduce_window_max(x, k, padding):
    window = (1,) + k + (1,)
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, window, window, padding)


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
@pytest.mark.parametrize("shape, k", [((2, 7, 5, 3), (2, 2)), ((1, 9, 8, 2), (3, 2)), ((2, 6, 4), (3,)),
                                      ((1, 5, 4, 6, 2), (2, 2, 2))])
def test_tiling_max_pool_values_and_gradients_match_reduce_window(shape, k, padding, rng):
    # windows that tile the input (stride = window) are pooled by a reshape: XLA's gradient of
    # reduce_window is the oracle
    x = rng.normal(size=shape).astype(np.float32)
    weights = rng.normal(size=_reduce_window_max(x, k, padding).shape).astype(np.float32)
    var = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = nn.max_pool(var, list(k), list(k), padding)
        total = tf.reduce_sum(y * weights)
    np.testing.assert_array_equal(y.numpy(), _reduce_window_max(x, k, padding))
    want = jax.grad(lambda v: jnp.sum(_reduce_window_max(v, k, padding) * weights))(x)
    np.testing.assert_array_equal(tape.gradient(total, var).numpy(), want)


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
def test_max_pool_gradient_goes_to_the_first_maximum_of_each_window_as_in_tensorflow(padding):
    x = tf.Variable(np.arange(25, dtype=np.float32).reshape(1, 5, 5, 1) % 4)  # windows with ties
    with tf.GradientTape() as tape:
        y = nn.max_pool2d(x, 2, 2, padding)
    grad = tape.gradient(y, x).numpy()[0, :, :, 0].tolist()
    # TensorFlow 2.21's outputs for the same program
    if padding == "VALID":
        assert y.numpy()[0, :, :, 0].tolist() == [[2.0, 3.0], [3.0, 2.0]]
        assert grad == [[0, 0, 0, 1, 0], [0, 1, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 0]]
    else:
        assert y.numpy()[0, :, :, 0].tolist() == [[2.0, 3.0, 1.0], [3.0, 2.0, 3.0], [1.0, 3.0, 0.0]]
        assert grad == [[0, 0, 0, 1, 0], [0, 1, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 0, 1, 1], [0, 1, 0, 1, 1]]


def test_tiling_max_pool_has_forward_mode_and_second_derivatives(rng):
    x = jnp.asarray(rng.normal(size=(1, 4, 4, 1)).astype(np.float32))
    pool = nn_pooling._max_pool.fn
    args = dict(window=(1, 2, 2, 1), strides=(1, 2, 2, 1), padding="VALID")
    tangent = jnp.asarray(rng.normal(size=x.shape).astype(np.float32))
    _, jvp = jax.jvp(lambda v: pool(v, **args), (x,), (tangent,))
    _, want = jax.jvp(lambda v: _reduce_window_max(v, (2, 2), "VALID"), (x,), (tangent,))
    np.testing.assert_array_equal(jvp, want)
    hessian = jax.hessian(lambda v: jnp.sum(pool(v, **args) ** 2))(x)
    want = jax.hessian(lambda v: jnp.sum(_reduce_window_max(v, (2, 2), "VALID") ** 2))(x)
    np.testing.assert_allclose(hessian, want)


def test_avg_pool_same_averages_valid_elements_only():
    x = tf.ones([1, 3, 3, 1])
    np.testing.assert_array_equal(nn.avg_pool2d(x, 2, 2, "SAME"), np.ones((1, 2, 2, 1)))


def test_pool2d_nchw(rng):
    x = rng.normal(size=(2, 3, 5, 4))
    got = nn.max_pool2d(x, [1, 1, 2, 2], [1, 1, 2, 2], "SAME", data_format="NCHW")
    want = np_pool(x.transpose(0, 2, 3, 1), (2, 2), (2, 2), "SAME", "max").transpose(0, 3, 1, 2)
    np.testing.assert_allclose(got, want)


def test_max_pool_of_integers():
    x = np.array([[-5, -3, -9, -1]], np.int32).reshape(1, 4, 1)
    check_op(lambda x: nn.max_pool1d(x, 3, 2, "SAME"), lambda x: np_pool(x, (3,), (2,), "SAME", "max"), x,
             grad=False)


@pytest.mark.parametrize("shape", [(2, 6, 3), (1, 4, 5, 2), (1, 3, 4, 4, 2)])
def test_pool_any_rank(shape, rng):
    x = rng.normal(size=shape)
    n_sp = len(shape) - 2
    check_op(lambda x: nn.max_pool(x, 2, 2, "SAME"),
             lambda x: np_pool(x, (2,) * n_sp, (2,) * n_sp, "SAME", "max"), x, grad=False)
    check_op(lambda x: nn.avg_pool(x, 2, 1, "VALID"),
             lambda x: np_pool(x, (2,) * n_sp, (1,) * n_sp, "VALID", "avg"), x, grad=False)


def test_pool_1d_3d(rng):
    x1, x3 = rng.normal(size=(2, 6, 3)), rng.normal(size=(1, 3, 4, 4, 2))
    check_op(lambda x: nn.avg_pool1d(x, 3, 2, "SAME"), lambda x: np_pool(x, (3,), (2,), "SAME", "avg"), x1)
    check_op(lambda x: nn.max_pool3d(x, 2, 2, "VALID"),
             lambda x: np_pool(x, (2,) * 3, (2,) * 3, "VALID", "max"), x3, grad=False)
    check_op(lambda x: nn.avg_pool3d(x, 2, 1, "SAME"),
             lambda x: np_pool(x, (2,) * 3, (1,) * 3, "SAME", "avg"), x3, grad=False)


def test_pool_errors():
    x = np.zeros((1, 4, 4, 2))
    with pytest.raises(ValueError, match=r"max_pool2d: `ksize` must be 1 in the batch and channel "
                                         r"dimensions. Received: ksize=\[1, 2, 2, 2\]"):
        nn.max_pool2d(x, [1, 2, 2, 2], 1, "VALID")
    with pytest.raises(ValueError, match="`strides` must be a positive int or a list of 1, 2 or 4 positive"):
        nn.avg_pool2d(x, 2, 0, "VALID")
    with pytest.raises(ValueError, match="avg_pool2d: padding must be 'SAME' or 'VALID'. Received: "
                                         "padding='FULL'"):
        nn.avg_pool2d(x, 2, 2, "FULL")
    with pytest.raises(ValueError, match="max_pool2d: `input` must have rank 4"):
        nn.max_pool2d(x[0], 2, 2, "VALID")
    with pytest.raises(ValueError, match="max_pool: `input` must have rank 3 or 4 or 5"):
        nn.max_pool(np.zeros((2, 2)), 2, 2, "VALID")
    with pytest.raises(TypeError, match="avg_pool2d needs a floating-point tensor for `input`"):
        nn.avg_pool2d(x.astype(np.int32), 2, 2, "VALID")
    with pytest.raises(TypeError, match="max_pool2d needs a real numeric tensor. Received dtype bool"):
        nn.max_pool2d(x.astype(bool), 2, 2, "VALID")


# -- dropout -----------------------------------------------------------------------------------

@pytest.fixture
def fixed_key(monkeypatch):
    """Makes every dropout call draw the same key, so dropout is a deterministic function."""
    key = jax.random.PRNGKey(42)
    monkeypatch.setattr(_random, "next_key", lambda seed=None: key)
    return key


@pytest.fixture
def global_seed():
    """Sets a global seed for the test (so its random numbers do not depend on test order)."""
    _random.set_seed(1234)
    yield
    _random.set_seed(None)


def test_dropout_keeps_expected_value(global_seed):
    rate = 0.3
    y = nn.dropout(tf.ones([200_000]), rate=rate, seed=5).numpy()
    kept = y != 0
    np.testing.assert_allclose(y[kept], 1 / (1 - rate), rtol=1e-6)
    assert abs(kept.mean() - (1 - rate)) < 0.005
    assert abs(y.mean() - 1.0) < 0.01


def test_dropout_draws_a_new_mask_each_call():
    x = tf.ones([1000])
    a, b = nn.dropout(x, 0.5, seed=3).numpy(), nn.dropout(x, 0.5, seed=3).numpy()
    assert not np.array_equal(a, b)


def test_dropout_matches_formula_with_a_fixed_key(fixed_key, rng):
    x = rng.normal(size=(4, 5))

    def reference(x, rate, noise_shape=None):
        noise = np.asarray(jax.random.uniform(fixed_key, noise_shape or x.shape, x.dtype))
        return x * (noise >= rate) / (1 - rate)

    check_op(nn.dropout, reference, x, 0.4)
    check_op(nn.dropout, reference, x, 0.4, noise_shape=(4, 1))


def test_dropout_noise_shape_drops_whole_rows():
    y = nn.dropout(tf.ones([500, 8]), 0.5, noise_shape=[None, 1]).numpy()
    assert all(len(set(row)) == 1 for row in y)
    assert 0 < (y[:, 0] == 0).sum() < 500


def test_dropout_rate_as_tensor():
    y = nn.dropout(tf.ones([10_000], tf.float64), tf.constant(0.25)).numpy()
    np.testing.assert_allclose(y[y != 0], 4 / 3)


def test_dropout_errors():
    with pytest.raises(ValueError, match=r"rate must be in the range \[0, 1\).*Received: rate=1.0"):
        nn.dropout(tf.ones([2]), 1.0)
    with pytest.raises(ValueError, match=r"Received: rate=-0.1"):
        nn.dropout(tf.ones([2]), -0.1)
    with pytest.raises(ValueError, match="Received: rate=1.5"):
        nn.dropout(tf.ones([2]), tf.constant(1.5))
    with pytest.raises(ValueError, match=r"rate must be a scalar. Received a tensor of shape \(2,\)"):
        nn.dropout(tf.ones([2]), tf.constant([0.1, 0.2]))
    with pytest.raises(TypeError, match="rate must be a float in"):
        nn.dropout(tf.ones([2]), "half")
    with pytest.raises(TypeError, match="dropout: x must be a floating-point tensor.*Received dtype int32"):
        nn.dropout([1, 2], 0.5)
    with pytest.raises(ValueError, match=r"noise_shape must broadcast to the shape of x, \(2, 3\). "
                                         r"Received: noise_shape=\[3, 1\]"):
        nn.dropout(tf.ones([2, 3]), 0.5, noise_shape=[3, 1])


# -- namespace ---------------------------------------------------------------------------------

def test_nn_namespace_exports_every_name_in_all():
    assert all(callable(getattr(nn, name)) for name in nn.__all__)
    assert nn.swish is nn.silu
    assert nn.sigmoid is tf.sigmoid and nn.tanh is tf.tanh


# -- embeddings and averaging for distributed training -----------------------------------------

def test_embedding_lookup(rng):
    table = rng.normal(size=(5, 3))
    ids = np.array([[4, 0], [2, 2]], np.int32)
    check_op(lambda t, i: nn.embedding_lookup(t, i), lambda t, i: t[i], table, ids)
    check_op(lambda t, i: nn.embedding_lookup([t], i), lambda t, i: t[i], table, np.array(3))


def test_embedding_lookup_max_norm(rng):
    table = rng.normal(size=(4, 3)) * 2
    table[1] = 0.0

    def reference(t, i, max_norm):
        rows = t[i]
        norms = np.linalg.norm(rows, axis=-1, keepdims=True)
        return rows * max_norm / np.maximum(norms, max_norm)

    check_op(nn.embedding_lookup, reference, table, np.array([0, 1, 3]), max_norm=1.0)


def test_embedding_lookup_errors():
    with pytest.raises(tf.InvalidArgumentError, match=r"ids\[1\] = 5 is not in \[0, 3\)"):
        nn.embedding_lookup(np.zeros((3, 2)), [0, 5])
    with pytest.raises(TypeError, match="ids must be an integer tensor. Received dtype float32"):
        nn.embedding_lookup(np.zeros((3, 2)), [0.0])
    with pytest.raises(ValueError, match="supports a single embedding table.*a list of 2 tables"):
        nn.embedding_lookup([np.zeros((3, 2)), np.zeros((3, 2))], [0])
    with pytest.raises(ValueError, match="params must have rank 1 or more"):
        nn.embedding_lookup(1.0, [0])


def test_compute_average_loss(rng):
    losses, weights = rng.uniform(size=(2, 6))
    check_op(lambda v: nn.compute_average_loss(v, global_batch_size=12), lambda v: v.sum() / 12, losses)
    check_op(lambda v, w: nn.compute_average_loss(v, sample_weight=w), lambda v, w: (v * w).sum() / 6,
             losses, weights)
    check_op(lambda v: nn.compute_average_loss(v, global_batch_size=tf.constant(3)),
             lambda v: v.sum() / 3, losses)


def test_scale_regularization_loss():
    check_op(nn.scale_regularization_loss, np.sum, np.array([0.5, 2.0]))


def test_compute_average_loss_errors():
    with pytest.raises(ValueError, match=r"^Invalid value passed for `per_example_loss`\. Expected a "
                                         r"tensor with at least rank 1\. Received per_example_loss=1\.0 "
                                         r"with rank 0$"):
        nn.compute_average_loss(1.0)
    assert float(nn.compute_average_loss([1.0], global_batch_size=0)) == 0.0  # TF divides with div_no_nan
    with pytest.raises(TypeError, match="global_batch_size must be an integer"):
        nn.compute_average_loss([1.0], global_batch_size=2.5)
    with pytest.raises(ValueError, match=r"sample_weight of shape \(3,\) does not broadcast"):
        nn.compute_average_loss([1.0, 2.0], sample_weight=[1.0, 2.0, 3.0])


# -- Variables and tapes -----------------------------------------------------------------------

def test_ops_read_variables_on_the_tape(rng):
    kernel = tf.Variable(rng.normal(size=(2, 2, 1, 2)))
    scale = tf.Variable(np.ones(2))
    images = tf.constant(rng.normal(size=(1, 4, 4, 1)))
    with tf.GradientTape() as tape:
        features = nn.conv2d(images, kernel, 1, "VALID")
        mean, variance = nn.moments(features, axes=[0, 1, 2])
        normed = nn.batch_normalization(features, mean, variance, None, scale, 1e-3)
        loss = nn.l2_loss(nn.relu(normed))
    grad_kernel, grad_scale = tape.gradient(loss, [kernel, scale])
    assert grad_kernel.shape == kernel.shape and grad_scale.shape == scale.shape
    # loss = sum(relu(scale * n) ** 2) / 2, so at scale = 1: d loss / d scale = sum(relu(n) ** 2)
    want = (np.maximum(np.asarray(normed), 0) ** 2).sum(axis=(0, 1, 2))
    np.testing.assert_allclose(grad_scale, want, rtol=1e-6)

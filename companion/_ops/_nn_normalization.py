"""Normalization ops of `companion.nn`: moments, batch_normalization, l2_normalize and bias_add."""

import numbers

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input, binary_inputs, is_tensor
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops import _gradient_kernels
from companion._ops._array import squeeze
from companion._ops._math import cast, square, squared_difference
from companion._ops._nn import float_input, shape_of
from companion._ops._reduce import reduce_sum
from companion._ops._safe_math import stop_gradient

_LOW_PRECISION = (jnp.float16, jnp.bfloat16)


# -- pure ops --------------------------------------------------------------------------------

@op("l2_normalize", static=("axis", "epsilon"))
def _l2_normalize(x, axis, epsilon):
    square_sum = jnp.sum(jnp.square(x), axis=axis, keepdims=True)
    # TF multiplies by 1 / sqrt, each rounded; XLA would fuse them into rsqrt (one unit off at times)
    norm = jax.lax.optimization_barrier(jnp.sqrt(jnp.maximum(square_sum, jnp.asarray(epsilon, x.dtype))))
    return x * (1 / norm)


@op("moments", static=("axes", "keepdims"))
def _moments(x, axes, keepdims):
    wide = x.astype(jnp.float32) if x.dtype in _LOW_PRECISION else x
    mean = jnp.mean(wide, axis=axes, keepdims=True)
    variance = jnp.mean(jnp.square(wide - mean), axis=axes, keepdims=keepdims)
    if not keepdims:
        mean = jnp.squeeze(mean, axis=axes)
    return mean.astype(x.dtype), variance.astype(x.dtype)


@op("batch_normalization", static=("epsilon", "has_offset", "has_scale"))
def _batch_normalization(x, mean, variance, *affine, epsilon, has_offset, has_scale):
    inv = _gradient_kernels.rsqrt(variance + jnp.asarray(epsilon, x.dtype))  # TF: Rsqrt, RsqrtGrad
    offset = affine[0] if has_offset else None
    if has_scale:
        inv = inv * affine[-1]
    shift = -mean * inv if offset is None else offset - mean * inv
    return x * inv + shift


@op("bias_add", static=("channel_axis",))
def _bias_add(value, bias, channel_axis):
    trailing = value.ndim - 1 - channel_axis % value.ndim
    return value + bias.reshape(bias.shape + (1,) * trailing)


# -- public functions ----------------------------------------------------------------------

def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """Divides ``x`` by its L2 norm along ``axis``: ``x / sqrt(max(sum(x ** 2), epsilon))``.

    Args:
        x: a float tensor.
        axis: an int or a list of ints; None normalizes over all elements.
        epsilon: a lower bound on the squared norm, which avoids dividing by zero.
        dim: TensorFlow's deprecated name for ``axis``.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.l2_normalize([3.0, 4.0]))
        companion.Tensor([0.6 0.8], shape=(2,), dtype=float32)
    """
    x = float_input(x, "l2_normalize", "x")
    axes = _axes(dim if axis is None else axis, x.ndim, "l2_normalize")
    return _l2_normalize(x, axis=axes, epsilon=float(epsilon))


def moments(x, axes, shift=None, keepdims=False, name=None):
    """The mean and (population) variance of ``x`` over ``axes``.

    float16/bfloat16 inputs are accumulated in float32, as TensorFlow does. ``shift`` is
    accepted for compatibility and unused (TensorFlow ignores it too).

    Args:
        x: a float tensor.
        axes: an int or a list of ints: the dimensions to reduce.
        keepdims: keep the reduced dimensions with size 1.

    Returns:
        A tuple ``(mean, variance)``.

    Example:
        >>> import companion as tf
        >>> mean, variance = tf.nn.moments(tf.constant([1.0, 2.0, 3.0, 4.0]), axes=[0])
        >>> float(mean), float(variance)
        (2.5, 1.25)
    """
    x = float_input(x, "moments", "x")
    if axes is None:
        raise ValueError("moments needs `axes`: the list of dimensions to reduce, e.g. axes=[0]. "
                         "Received: axes=None")
    return _moments(x, axes=_axes(axes, x.ndim, "moments"), keepdims=bool(keepdims))


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """Normalizes ``x`` with given statistics: ``scale * (x - mean) / sqrt(variance + eps) + offset``.

    ``mean``, ``variance``, ``offset`` and ``scale`` broadcast against ``x`` (typically
    they come from `moments` with ``keepdims=True``, or are per-channel vectors);
    ``offset`` and ``scale`` may be None.

    Example:
        >>> import companion as tf
        >>> x = tf.constant([1.0, 3.0])
        >>> print(tf.nn.batch_normalization(x, 2.0, 1.0, None, None, 0.0))
        companion.Tensor([-1.  1.], shape=(2,), dtype=float32)
    """
    op_name = "batch_normalization"
    x = float_input(x, op_name, "x")
    named = {"mean": mean, "variance": variance, "offset": offset, "scale": scale}
    params = {k: _param(x, v, k, op_name) for k, v in named.items() if v is not None}
    inputs = [params[k] for k in ("mean", "variance", "offset", "scale") if k in params]
    return _batch_normalization(x, *inputs, epsilon=float(variance_epsilon),
                                has_offset="offset" in params, has_scale="scale" in params)


def bias_add(value, bias, data_format=None, name=None):
    """Adds the 1-D ``bias`` along the channel dimension of ``value``.

    The channel dimension is the last one (``data_format`` None or ``"N...C"``), or the
    second one for channels-first formats (``"NC..."``, e.g. ``"NCHW"``).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.bias_add(tf.zeros([2, 3]), [1.0, 2.0, 3.0]))
        companion.Tensor(
        [[1. 2. 3.]
         [1. 2. 3.]], shape=(2, 3), dtype=float32)
    """
    value, bias = binary_inputs(value, bias, "bias_add")
    channel_axis = _channel_axis(data_format)
    _check_bias(value, bias, channel_axis)
    return _bias_add(value, bias, channel_axis=channel_axis)


# -- checks -------------------------------------------------------------------------------------

def _axes(axis, rank, op_name):
    """``axis`` (None, an int or a list) as a sorted tuple of non-negative ints."""
    if axis is None:
        return tuple(range(rank))
    axes = [axis] if isinstance(axis, numbers.Integral) else list(np.asarray(axis).reshape(-1))
    for a in axes:
        if not -rank <= int(a) < rank:
            raise InvalidArgumentError(f"{op_name}: axis {int(a)} is out of range for a tensor of rank "
                                       f"{rank}; expected axes in [{-rank}, {rank}). Received: {axis!r}")
    return tuple(sorted({int(a) % rank for a in axes}))


def _param(x, value, arg, op_name):
    value = value if is_tensor(value) else as_input(value, x.dtype)
    if value.dtype != x.dtype:
        raise InvalidArgumentError(f"{op_name}: `{arg}` must have the dtype of x ({x.dtype.name}). "
                                   f"Received dtype {value.dtype.name}. Cast it with companion.cast.")
    try:
        np.broadcast_shapes(shape_of(value), shape_of(x))
    except ValueError:
        raise ValueError(f"{op_name}: `{arg}` of shape {shape_of(value)} does not broadcast against x "
                         f"of shape {shape_of(x)}. Use moments(..., keepdims=True) or a per-channel "
                         "vector.") from None
    return value


def _channel_axis(data_format):
    if data_format is None or (data_format.startswith("N") and data_format.endswith("C")):
        return -1
    if data_format.startswith("NC"):
        return 1
    raise ValueError("bias_add: data_format must be None, 'N...C' (e.g. 'NHWC') or 'NC...' (e.g. "
                     f"'NCHW'). Received: data_format={data_format!r}")


def _check_bias(value, bias, channel_axis):
    if bias.ndim != 1:
        raise ValueError(f"bias_add: bias must be 1-D. Received a bias of shape {shape_of(bias)}.")
    if value.ndim < 2:
        raise ValueError(f"bias_add: value must have rank 2 or more. Received shape {shape_of(value)}.")
    channels = shape_of(value)[channel_axis]
    if shape_of(bias)[0] != channels:
        raise InvalidArgumentError(f"bias_add: must provide as many biases as the channel dimension of "
                                   f"value ({channels}). Received a bias of shape {shape_of(bias)} for "
                                   f"value of shape {shape_of(value)}.")


# -- statistics in pieces, local response normalization ------------------------------------------

@op("local_response_normalization", static=("radius", "bias", "alpha", "beta"))
def _lrn(x, radius, bias, alpha, beta):
    squares = jnp.square(x)
    channels = x.shape[-1]
    padded = jnp.pad(squares, ((0, 0),) * (x.ndim - 1) + ((radius, radius),))
    window = padded[..., :channels]
    for offset in range(1, 2 * radius + 1):
        window = window + padded[..., offset:offset + channels]
    scale = bias + alpha * window
    if beta == 1:  # TF's kernel takes these shortcuts too
        return x / scale
    if beta == 0.5:
        return x * jax.lax.rsqrt(scale)
    return x * jnp.exp(jnp.log(scale) * -beta)


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,  # noqa: A002
                                 name=None):
    """Each value divided by ``(bias + alpha * sum of squares) ** beta``, the sum over the values within
    ``depth_radius`` of it along the last (channel) axis of a 4-D input (TF's ``lrn``).

    Example:
        >>> import companion as tf
        >>> x = tf.constant([[[[1.0, 2.0, 3.0]]]])
        >>> print(tf.nn.local_response_normalization(x, depth_radius=1, bias=0.0, alpha=1.0, beta=1.0))
        companion.Tensor([[[[0.2        0.14285715 0.23076923]]]], shape=(1, 1, 1, 3), dtype=float32)
    """
    x = float_input(input, "local_response_normalization", "input")
    if x.ndim != 4:
        raise InvalidArgumentError(f"local_response_normalization needs a 4-D input [batch, height, width, "
                                   f"channels]. Received shape {shape_of(x)}")
    return _lrn(x, radius=int(depth_radius), bias=float(bias), alpha=float(alpha), beta=float(beta))


lrn = local_response_normalization


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """``(count, sum, sum of squares, shift)`` of ``x`` over ``axes`` (shifted by ``shift`` when given),
    the pieces `normalize_moments` turns into a mean and variance."""
    x = float_input(x, "sufficient_statistics", "x")
    reduced = _axes(axes, x.ndim, "sufficient_statistics")
    count = as_input(float(np.prod([shape_of(x)[a] for a in reduced])), x.dtype)
    if shift is not None:
        shift = cast(as_input(shift, x.dtype), x.dtype)
        shifted = x - shift
        return (count, reduce_sum(shifted, reduced, keepdims=keepdims),
                reduce_sum(square(shifted), reduced, keepdims=keepdims), shift)
    return (count, reduce_sum(x, reduced, keepdims=keepdims),
            reduce_sum(square(x), reduced, keepdims=keepdims), None)


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """The ``(mean, variance)`` of `sufficient_statistics`' pieces."""
    mean_ss = as_input(mean_ss)
    divisor = 1.0 / as_input(counts, mean_ss.dtype)
    shifted_mean = mean_ss * divisor
    mean = shifted_mean if shift is None else shifted_mean + as_input(shift, mean_ss.dtype)
    return mean, as_input(variance_ss, mean_ss.dtype) * divisor - square(shifted_mean)


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """The mean and variance of ``x`` over ``axes``, each value counted ``frequency_weights`` times
    (the weights broadcast against ``x``)."""
    x = float_input(x, "weighted_moments", "x")
    weights = cast(as_input(frequency_weights), x.dtype)
    reduced = _axes(axes, x.ndim, "weighted_moments")
    weighted_sum = reduce_sum(weights * x, reduced, keepdims=True)
    total_weight = reduce_sum(weights + x * 0, reduced, keepdims=True)
    divisor = 1.0 / total_weight
    mean = weighted_sum * divisor
    spread = weights * squared_difference(x, stop_gradient(mean))
    variance = reduce_sum(spread, reduced, keepdims=True) * divisor
    if not keepdims:
        mean, variance = squeeze(mean, list(reduced)), squeeze(variance, list(reduced))
    return mean, variance


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None, variance_epsilon=None,
                                         scale_after_normalization=None, name=None, input=None,  # noqa: A002
                                         mean=None, variance=None):
    """TF 1's batch normalization: `batch_normalization` with ``gamma`` used only when
    ``scale_after_normalization``."""
    x = input if t is None else t
    mean = mean if m is None else m
    variance = variance if v is None else v
    return batch_normalization(x, mean, variance, beta, gamma if scale_after_normalization else None,
                               variance_epsilon)

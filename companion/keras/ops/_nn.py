"""Keras 3's neural-network ops (``keras.ops.nn``): activations, losses, convolutions, pooling,
``one_hot``, normalisations and attention, built on companion's `nn` ops and Keras activations."""

import inspect

import jax
import jax.numpy as jnp
import numpy as np

import companion as _tf
from companion._core._errors import InvalidArgumentError
from companion._core._op import Op
from companion._ops._nn_ctc import CTC_LOSS as _CTC_LOSS
from companion.keras import activations as _act
from companion.keras import backend as _backend
from companion.keras._keras_logits import get_keras_logits
from companion.keras.backend._ctc import beam_search_decode
from companion.keras.ops._base import FLOATX, call, define, dtype_of, hashable, prepare, standardize, tensor

__all__ = ["adaptive_average_pool", "adaptive_max_pool", "average_pool", "batch_normalization",
           "binary_crossentropy", "categorical_crossentropy", "conv", "conv_transpose", "ctc_decode",
           "ctc_loss", "depth_to_space", "depthwise_conv", "dot_product_attention", "fold",
           "layer_normalization", "max_pool", "moments", "multi_hot", "normalize", "one_hot", "psnr",
           "relu", "rms_normalization", "separable_conv", "space_to_depth",
           "sparse_categorical_crossentropy", "threshold", "unfold"]

EPSILON = 1e-7  # Keras's backend.epsilon()

# name: (Keras activation, extra parameters as (name, default))
_ACTIVATIONS = {
    "sigmoid": (_act.sigmoid, ()), "softplus": (_act.softplus, ()), "softsign": (_act.softsign, ()),
    "relu6": (_act.relu6, ()), "silu": (_act.swish, ()), "swish": (_act.swish, ()),
    "log_sigmoid": (_act.log_sigmoid, ()), "hard_sigmoid": (_act.hard_sigmoid, ()),
    "hard_silu": (_act.hard_silu, ()), "hard_swish": (_act.hard_silu, ()), "selu": (_act.selu, ()),
    "hard_tanh": (_act.hard_tanh, ()), "tanh_shrink": (_act.tanh_shrink, ()),
    "sparse_plus": (_act.sparse_plus, ()), "sparse_sigmoid": (_act.sparse_sigmoid, ()),
    "leaky_relu": (_act.leaky_relu, (("negative_slope", 0.2),)), "elu": (_act.elu, (("alpha", 1.0),)),
    "celu": (_act.celu, (("alpha", 1.0),)), "gelu": (_act.gelu, (("approximate", True),)),
    "glu": (_act.glu, (("axis", -1),)), "hard_shrink": (_act.hard_shrink, (("threshold", 0.5),)),
    "soft_shrink": (_act.soft_shrink, (("threshold", 0.5),)), "squareplus": (_act.squareplus, (("b", 4),)),
    "sparsemax": (_act.sparsemax, (("axis", -1),)), "softmax": (_act.softmax, (("axis", -1),)),
    "log_softmax": (_act.log_softmax, (("axis", -1),)),
}


def _activation(name, fn, extra):
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature([inspect.Parameter("x", kind)] + [
        inspect.Parameter(key, kind, default=value) for key, value in extra])

    def run(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        params = dict(bound.arguments)
        return fn(tensor(params.pop("x")), **params)

    run.__signature__ = signature
    run.__name__ = name
    run.__doc__ = f"Keras's ``{name}`` activation on ``x`` (parameters: {dict(extra) or 'none'})."
    return run


OPS = {name: _activation(name, fn, extra) for name, (fn, extra) in _ACTIVATIONS.items()}


def relu(x):
    """``max(x, 0)``."""
    return _tf.nn.relu(tensor(x))


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""
    return _act.threshold(tensor(x), threshold, default_value)


def _logits_of(output, from_logits):
    """A Keras sigmoid/softmax output's logits and True, as Keras 3's cross-entropies take them."""
    logits = get_keras_logits(output)
    return (output, from_logits) if logits is None else (logits, True)


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy of probabilities (or logits) ``output`` against ``target``:
    Keras 3's ``-(t * log(p) + (1 - t) * log(1 - p))`` of ``p`` clipped to ``[1e-7, 1 - 1e-7]``."""
    output, from_logits = _logits_of(output, from_logits)
    target, output = prepare([target, output], "float")
    if from_logits:
        return _tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = _tf.constant(_backend.epsilon(), output.dtype)
    output = _tf.clip_by_value(output, eps, 1.0 - eps)
    return -(target * _tf.math.log(output) + (1 - target) * _tf.math.log(1 - output))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of one-hot ``target`` and class probabilities (or logits) along ``axis``."""
    output, from_logits = _logits_of(output, from_logits)
    target, output = prepare([target, output], "float")
    return _backend.categorical_crossentropy(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of integer class ``target`` and class probabilities (or logits) along ``axis``."""
    output, from_logits = _logits_of(output, from_logits)
    return _backend.sparse_categorical_crossentropy(tensor(target), tensor(output), from_logits=from_logits,
                                                    axis=axis)


def _tuple(value, rank, name):
    value = hashable(value)
    if isinstance(value, int):
        return (value,) * rank
    if len(value) != rank:
        raise InvalidArgumentError(f"keras.ops: `{name}` must be an int or a tuple of {rank} ints for "
                                   f"{rank} spatial dimensions; received {value!r}.")
    return tuple(value)


def _layout(inputs, data_format):
    """``(rank of space, TF data format)`` for Keras's ``channels_last``/``channels_first``."""
    spatial = len(inputs.shape) - 2
    if spatial not in (1, 2, 3):
        raise InvalidArgumentError(
            f"keras.ops: inputs must have rank 3, 4 or 5 (batch, spatial dims, channels); received "
            f"shape {tuple(inputs.shape)}. Add a batch axis with ops.expand_dims(x, 0) if needed.")
    data_format = data_format or "channels_last"
    if data_format not in ("channels_last", "channels_first"):
        raise InvalidArgumentError(f"keras.ops: data_format must be 'channels_last' or 'channels_first'; "
                                   f"received {data_format!r}.")
    letters = "DHW"[3 - spatial:] if spatial > 1 else "W"
    return spatial, ("N" + letters + "C") if data_format == "channels_last" else ("NC" + letters)


def _padding(padding):
    if str(padding).lower() not in ("valid", "same"):
        raise InvalidArgumentError(f"keras.ops: padding must be 'valid' or 'same'; received {padding!r}.")
    return str(padding).upper()


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (1-3 spatial dims) of ``inputs`` with ``kernel`` (spatial..., in, out)."""
    inputs, kernel = prepare([inputs, kernel], "promote")
    spatial, fmt = _layout(inputs, data_format)
    return _tf.nn.convolution(inputs, kernel, strides=_tuple(strides, spatial, "strides"),
                              padding=_padding(padding), data_format=fmt,
                              dilations=_tuple(dilation_rate, spatial, "dilation_rate"))


def _transpose_length(size, kernel, stride, padding, output_padding, dilation):
    kernel = (kernel - 1) * dilation + 1
    if output_padding is None:
        return size * stride + max(kernel - stride, 0) if padding == "VALID" else size * stride
    pad = 0 if padding == "VALID" else kernel // 2
    return (size - 1) * stride + kernel - 2 * pad + output_padding


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None, data_format=None,
                   dilation_rate=1):
    """Transposed convolution; ``kernel`` is (spatial..., out channels, in channels), as Keras's."""
    inputs, kernel = prepare([inputs, kernel], "promote")
    spatial, fmt = _layout(inputs, data_format)
    strides = _tuple(strides, spatial, "strides")
    dilations = _tuple(dilation_rate, spatial, "dilation_rate")
    extra = (None,) * spatial if output_padding is None else _tuple(output_padding, spatial, "output_padding")
    sizes = inputs.shape[1:-1] if fmt.endswith("C") else inputs.shape[2:]
    lengths = [_transpose_length(n, k, s, _padding(padding), p, d)
               for n, k, s, p, d in zip(sizes, kernel.shape[:spatial], strides, extra, dilations)]
    channels = kernel.shape[-2]
    batch = inputs.shape[0]
    shape = [batch, *lengths, channels] if fmt.endswith("C") else [batch, channels, *lengths]
    return _tf.nn.conv_transpose(inputs, kernel, shape, strides, padding=_padding(padding), data_format=fmt,
                                 dilations=dilations)


def _as_2d(inputs, kernels, data_format, run):
    """Runs a 2-D-only TF convolution, lifting 1-D inputs and kernels by a unit axis."""
    spatial, fmt = _layout(inputs, data_format)
    if spatial == 2:
        return run(inputs, kernels, fmt, 2)
    if spatial != 1:
        raise InvalidArgumentError("keras.ops: depthwise and separable convolutions take 1 or 2 spatial "
                                   f"dimensions; received inputs of shape {tuple(inputs.shape)}.")
    axis = 1 if fmt == "NWC" else 2
    out = run(_tf.expand_dims(inputs, axis), [_tf.expand_dims(k, 0) for k in kernels],
              "NHWC" if fmt == "NWC" else "NCHW", 1)
    return _tf.squeeze(out, axis)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Depthwise convolution: each input channel convolved with its own ``kernel[..., c, :]`` filters."""
    inputs, kernel = prepare([inputs, kernel], "promote")

    def run(x, kernels, fmt, spatial):
        strides_, dilations = _strides_dilations(strides, dilation_rate, spatial, fmt)
        return _tf.nn.depthwise_conv2d(x, kernels[0], strides_, _padding(padding), data_format=fmt,
                                       dilations=dilations)

    return _as_2d(inputs, [kernel], data_format, run)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """A depthwise convolution followed by a 1x1 (pointwise) convolution."""
    inputs, depthwise_kernel, pointwise_kernel = prepare([inputs, depthwise_kernel, pointwise_kernel],
                                                         "promote")

    def run(x, kernels, fmt, spatial):
        strides_, dilations = _strides_dilations(strides, dilation_rate, spatial, fmt)
        return _tf.nn.separable_conv2d(x, kernels[0], kernels[1], strides_, _padding(padding),
                                       data_format=fmt, dilations=dilations)

    return _as_2d(inputs, [depthwise_kernel, pointwise_kernel], data_format, run)


def _strides_dilations(strides, dilation_rate, spatial, fmt):
    strides = (1,) * (2 - spatial) + _tuple(strides, spatial, "strides")
    dilations = (1,) * (2 - spatial) + _tuple(dilation_rate, spatial, "dilation_rate")
    full = (1, *strides, 1) if fmt.endswith("C") else (1, 1, *strides)
    return full, dilations


def _pool(kind):
    def run(inputs, pool_size, strides=None, padding="valid", data_format=None):
        inputs = tensor(inputs)
        spatial, fmt = _layout(inputs, data_format)
        window = _tuple(pool_size, spatial, "pool_size")
        steps = window if strides is None else _tuple(strides, spatial, "strides")
        return _tf.nn.pool(inputs, window, kind, strides=steps, padding=_padding(padding), data_format=fmt)

    run.__name__ = "max_pool" if kind == "MAX" else "average_pool"
    run.__doc__ = (f"{kind.title()} pooling over windows of ``pool_size`` (strides default to the window); "
                   "1-3 spatial dimensions.")
    return run


max_pool = _pool("MAX")
average_pool = _pool("AVG")


def _adaptive(x, sizes, first_axis, reduce):
    """Pools each spatial axis into ``sizes`` windows ``[floor(i n / k), ceil((i + 1) n / k))``."""
    for offset, size in enumerate(sizes):
        axis = first_axis + offset
        length = x.shape[axis]
        windows = [jax.lax.slice_in_dim(x, (i * length) // size, -(-(i + 1) * length // size), axis=axis)
                   for i in range(size)]
        x = jnp.concatenate([reduce(w, axis=axis, keepdims=True) for w in windows], axis=axis)
    return x


_ADAPTIVE = {kind: Op(f"adaptive_{kind}_pool", lambda x, sizes, first_axis, reduce=reduce: _adaptive(
    x, sizes, first_axis, reduce), static=("sizes", "first_axis")) for kind, reduce in (
    ("average", jnp.mean), ("max", jnp.max))}


def _adaptive_pool(kind):
    def run(inputs, output_size, data_format=None):
        inputs = tensor(inputs)
        spatial, fmt = _layout(inputs, data_format)
        sizes = _tuple(output_size, spatial, "output_size")
        return call(_ADAPTIVE[kind], [inputs], {"sizes": sizes, "first_axis": 1 if fmt.endswith("C") else 2})

    run.__name__ = f"adaptive_{kind}_pool"
    run.__doc__ = (f"Adaptive {kind} pooling to ``output_size`` per spatial dimension: output ``i`` pools "
                   "input positions ``floor(i n / k)`` to ``ceil((i + 1) n / k)`` (PyTorch's windows).")
    return run


adaptive_average_pool = _adaptive_pool("average")
adaptive_max_pool = _adaptive_pool("max")


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """Integer classes ``x`` as one-hot vectors of length ``num_classes`` along ``axis`` (float32)."""
    if sparse:
        raise InvalidArgumentError("keras.ops.one_hot: sparse=True is not supported; pass sparse=False.")
    return _tf.one_hot(tensor(x, np.dtype("int32")), hashable(num_classes), axis=axis,
                       dtype=_tf.as_dtype(standardize(dtype) or FLOATX))


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Multi-hot encoding: 1 at every class of ``inputs`` (the last axis holds each sample's classes)."""
    num_classes = kwargs.pop("num_tokens", num_classes)
    if num_classes is None:
        raise InvalidArgumentError("keras.ops.multi_hot needs `num_classes`; received None.")
    x = tensor(inputs)
    hot = one_hot(x, num_classes, axis=axis, dtype=dtype, sparse=sparse)
    reduce_axis = -1 if len(x.shape) == 1 else (-2 if axis == -1 else axis)
    return _tf.reduce_max(hot, axis=reduce_axis if len(x.shape) > 1 else 0)


def moments(x, axes, keepdims=False, synchronized=False):
    """Mean and variance of ``x`` over ``axes`` (half precision computed in float32; integers stay
    integers with integer means, as Keras on TF)."""
    x = tensor(x)
    original = dtype_of(x)
    axes = list(hashable(axes)) if isinstance(axes, (list, tuple)) else [hashable(axes)]
    if original.kind in "biu":
        mean = _tf.reduce_mean(x, axis=axes, keepdims=True)
        variance = _tf.reduce_mean(_tf.math.squared_difference(x, mean), axis=axes, keepdims=keepdims)
        return (mean if keepdims else _tf.squeeze(mean, axes)), variance
    work = tensor(x, FLOATX) if original.itemsize < 4 else x
    mean, variance = _tf.nn.moments(work, axes, keepdims=keepdims)
    return tensor(mean, original), tensor(variance, original)


_NORMALIZE = Op("normalize", lambda x, axis, order, epsilon: x * jnp.minimum(
    1.0 / jnp.linalg.norm(x, ord=order, axis=axis, keepdims=True) if order != 2 else
    jax.lax.rsqrt(jnp.sum(jnp.square(x), axis=axis, keepdims=True)), 1.0 / epsilon),
    static=("axis", "order", "epsilon"))


def normalize(x, axis=-1, order=2, epsilon=None):
    """``x`` divided by its ``order``-norm along ``axis`` (norms below ``epsilon`` count as ``epsilon``)."""
    if not isinstance(order, int) or order < 1:
        raise InvalidArgumentError(f"keras.ops.normalize: order must be an int >= 1; received {order!r}.")
    x = prepare([x], "float")[0]
    if len(x.shape) == 0:
        x = _tf.expand_dims(x, 0)
    params = {"axis": hashable(axis), "order": order, "epsilon": EPSILON if epsilon is None else epsilon}
    return call(_NORMALIZE, [x], params)


def _broadcast_to_axis(value, x, axis):
    """``value`` (a vector over ``axis``, or already broadcastable) shaped to broadcast against ``x``."""
    value = tensor(value, dtype_of(x))
    if len(value.shape) != 1 or len(x.shape) <= 1:
        return value
    shape = [1] * len(x.shape)
    shape[axis] = value.shape[0]
    return _tf.reshape(value, shape)


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """``(x - mean) / sqrt(variance + epsilon) * scale + offset``, the statistics given along ``axis``."""
    x = prepare([x], "float")[0]
    out = (x - _broadcast_to_axis(mean, x, axis)) * _tf.math.rsqrt(_broadcast_to_axis(variance, x, axis)
                                                                   + epsilon)
    if scale is not None:
        out = out * _broadcast_to_axis(scale, x, axis)
    return out if offset is None else out + _broadcast_to_axis(offset, x, axis)


def _along(value, x, axes):
    """``value`` broadcastable against ``x``: a vector over the one normalised axis, or as given."""
    return _broadcast_to_axis(value, x, axes[0]) if len(axes) == 1 else tensor(value, dtype_of(x))


def _normalization(name, rms):
    def run(x, scale, offset, axis, epsilon):
        x = tensor(x)
        original = dtype_of(x)
        x = tensor(x, np.result_type(original, FLOATX) if original.kind == "f" else FLOATX)
        axes = [axis] if isinstance(axis, int) else sorted(axis)
        epsilon = EPSILON if epsilon is None else epsilon
        if rms:
            out = x * _tf.math.rsqrt(_tf.reduce_mean(_tf.square(x), axis=axes, keepdims=True) + epsilon)
        else:
            mean, variance = _tf.nn.moments(x, axes, keepdims=True)
            out = (x - mean) * _tf.math.rsqrt(variance + epsilon)
        if scale is not None:
            out = out * _along(scale, x, axes)
        if offset is not None:
            out = out + _along(offset, x, axes)
        return tensor(out, original) if original.kind == "f" else out

    run.__name__ = name
    return run


_layer_norm = _normalization("layer_normalization", rms=False)
_rms_norm = _normalization("rms_normalization", rms=True)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """``x`` normalised to zero mean and unit variance over ``axis``, then ``* gamma + beta``."""
    if kwargs.pop("rms_scaling", False):
        return _rms_norm(x, gamma, None, axis, epsilon)
    return _layer_norm(x, gamma, beta, axis, epsilon)


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """``x / sqrt(mean(x ** 2) + epsilon)`` over ``axis``, times ``scale``."""
    return _rms_norm(x, scale, None, axis, epsilon)


def _depth_op(fn):
    def run(x, block_size, data_format="channels_last"):
        fmt = "NHWC" if data_format == "channels_last" else "NCHW"
        return fn(tensor(x), hashable(block_size), data_format=fmt)
    return run


depth_to_space = _depth_op(_tf.nn.depth_to_space)
space_to_depth = _depth_op(_tf.nn.space_to_depth)
depth_to_space.__doc__ = "Moves depth blocks of ``block_size**2`` channels into space (4-D images)."
space_to_depth.__doc__ = "Moves ``block_size x block_size`` spatial blocks into the channel axis (4-D)."


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio in dB: ``20 log10(max_val) - 10 log10(mean((x1 - x2) ** 2))``."""
    x1, x2 = prepare([x1, x2], "float")
    if tuple(x1.shape) != tuple(x2.shape):
        raise InvalidArgumentError(f"keras.ops.psnr needs inputs of one shape; received {tuple(x1.shape)} "
                                   f"and {tuple(x2.shape)}.")
    mse = _tf.reduce_mean(_tf.square(x1 - x2))
    log10 = np.log(10.0)
    return 20.0 * _tf.math.log(tensor(max_val, dtype_of(x1))) / log10 - 10.0 * _tf.math.log(mse) / log10


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """CTC loss per sample: integer ``target`` (batch, max label length) against ``output`` logits
    (batch, time, classes); ``mask_index`` is the blank class. Half precision computes in float32."""
    output = tensor(output)
    original = dtype_of(output)
    work = FLOATX if original.kind != "f" or original.itemsize < 4 else original
    lengths = [tensor(target_length, np.dtype("int32")), tensor(output_length, np.dtype("int32"))]
    loss = call(_CTC_LOSS, [tensor(target, np.dtype("int32")), tensor(output, work), *lengths],
                {"blank": int(mask_index)})
    return tensor(loss, original) if original.kind == "f" else loss


def _ctc_greedy(inputs, lengths, merge_repeated, blank):
    """Best class per step; repeats merged (before blanks are dropped, as TF), blanks dropped, the
    labels packed left and padded with -1; the score is minus the sum of the steps' best inputs."""
    steps = inputs.shape[1]
    best = jnp.argmax(inputs, axis=-1).astype(jnp.int32)
    valid = jnp.arange(steps)[None, :] < lengths[:, None]
    keep = valid & (best != blank)
    if merge_repeated:
        keep = keep & jnp.concatenate([jnp.ones_like(best[:, :1], bool), best[:, 1:] != best[:, :-1]], axis=1)
    slots = jnp.where(keep, jnp.cumsum(keep, axis=1) - 1, steps)  # dropped labels go to a spare slot
    rows = jnp.arange(best.shape[0])[:, None]
    decoded = jnp.full((best.shape[0], steps + 1), -1, jnp.int32).at[rows, slots].set(best)[:, :steps]
    # 0 - sum, not -sum: a sample with no steps scores 0.0 as TF (not -0.0)
    score = 0.0 - jnp.sum(jnp.where(valid, jnp.max(inputs, axis=-1), 0), axis=1, keepdims=True)
    return decoded[None], score


_CTC_GREEDY = Op("ctc_decode", _ctc_greedy, static=("merge_repeated", "blank"))


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True,
               mask_index=0):
    """CTC decoding of ``inputs`` (batch, time, classes; logits or log-probabilities), as Keras 3.

    Returns ``(decoded, scores)``: int32 labels ``(top_paths, batch, time)`` padded with -1 (one path
    for ``"greedy"``) and scores ``(batch, top_paths)``. ``"greedy"`` takes the best class per step
    (``merge_repeated`` merges repeats), scored by minus the sum of the steps' best inputs;
    ``"beam_search"`` keeps the ``beam_width`` likeliest label prefixes (TF's ``CTCBeamSearchDecoder``
    on the host, repeats kept as ``tf.nn.ctc_beam_search_decoder`` does, ``merge_repeated`` unused)
    and scores each path by its log-probability, in float32 (float64 for float64 inputs).
    ``mask_index`` is the blank class (None: the last).
    """
    if strategy == "beam_search":
        return _ctc_beam_search(inputs, sequence_lengths, beam_width, top_paths, mask_index)
    if strategy != "greedy":
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and 'beam_search'.")
    inputs = prepare([inputs, 1.0], "float")[0]
    return call(_CTC_GREEDY, [inputs, tensor(sequence_lengths, np.dtype("int32"))],
                {"merge_repeated": bool(merge_repeated), "blank": int(mask_index)})


def _ctc_beam_search(inputs, sequence_lengths, beam_width, top_paths, mask_index):
    """Keras 3's beam search: the blank's column moved last (the decoder's blank), the decoded
    labels from it on shifted back up by one."""
    inputs = tensor(inputs)
    work = np.dtype("float64") if dtype_of(inputs) == np.dtype("float64") else FLOATX
    inputs = tensor(inputs, work)
    classes = inputs.shape[-1]
    if mask_index is not None:  # Python's slicing of the class axis, as Keras's (a negative index too)
        columns = list(range(classes))
        mask = int(mask_index)
        order = columns[:mask] + columns[mask + 1:] + columns[mask:mask + 1]
        if order != columns:
            inputs = _tf.gather(inputs, order, axis=-1)
    decoded, scores = beam_search_decode(inputs, tensor(sequence_lengths, np.dtype("int32")), beam_width,
                                         top_paths, merge_repeated=False)
    decoded = _tf.cast(_tf.stack(decoded), "int32")
    if mask_index is not None:
        first = int(mask_index) + classes if int(mask_index) < 0 else int(mask_index)
        decoded = _tf.where(decoded >= first, decoded + 1, decoded)
    return decoded, scores


def _unfold(x, kernel, dilation, padding, stride):
    """(N, C, H, W) -> (N, C * kh * kw, blocks): PyTorch's ``unfold`` (channel-major patch order)."""
    patches = jax.lax.conv_general_dilated_patches(x, kernel, stride, [(p, p) for p in padding],
                                                   rhs_dilation=dilation)
    return patches.reshape(patches.shape[0], patches.shape[1], -1)


def _fold(x, size, kernel, dilation, padding, stride):
    """The adjoint of `_unfold`: blocks summed back into (N, C, H, W) images of ``size``."""
    channels = x.shape[1] // (kernel[0] * kernel[1])
    blank = jnp.zeros((x.shape[0], channels, *size), x.dtype)
    _, transpose = jax.vjp(lambda images: _unfold(images, kernel, dilation, padding, stride), blank)
    return transpose(x)[0]


_UNFOLD = Op("unfold", _unfold, static=("kernel", "dilation", "padding", "stride"))
_FOLD = Op("fold", _fold, static=("size", "kernel", "dilation", "padding", "stride"))


def _block_params(kernel_size, dilation, padding, stride):
    return {name: _tuple(value, 2, name) for name, value in (
        ("kernel", kernel_size), ("dilation", dilation), ("padding", padding), ("stride", stride))}


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding ``kernel_size`` blocks of channels-first images ``x`` (N, C, H, W), each flattened
    (channel-major) into a column: shape (N, C * kh * kw, number of blocks), as PyTorch's."""
    x = tensor(x)
    if len(x.shape) != 4:
        raise InvalidArgumentError(f"keras.ops.unfold expects 4-D (N, C, H, W) input; received shape "
                                   f"{tuple(x.shape)}.")
    return call(_UNFOLD, [x], _block_params(kernel_size, dilation, padding, stride))


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The inverse arrangement of `unfold`: columns (N, C * kh * kw, blocks) summed into overlapping
    blocks of (N, C, *output_size) images."""
    x = tensor(x)
    params = _block_params(kernel_size, dilation, padding, stride)
    if len(x.shape) != 3 or x.shape[1] % (params["kernel"][0] * params["kernel"][1]):
        raise InvalidArgumentError(f"keras.ops.fold expects (N, C * kh * kw, blocks) input; received shape "
                                   f"{tuple(x.shape)} for kernel_size {params['kernel']}.")
    return call(_FOLD, [x], {"size": _tuple(output_size, 2, "output_size"), **params})


def _attention(query, key, value, bias, mask, scale, is_causal):
    logits = jnp.einsum("btnh,bsnh->bnts", query, key) * scale
    if bias is not None:
        logits = logits + bias
    keep = jnp.ones(logits.shape, bool)
    if mask is not None:
        keep = keep & mask
    if is_causal:
        keep = keep & jnp.tril(jnp.ones(logits.shape[-2:], bool))
    logits = jnp.where(keep, logits, jnp.finfo(logits.dtype).min / 2)
    weights = jax.nn.softmax(logits.astype(jnp.float32), axis=-1).astype(value.dtype)
    return jnp.einsum("bnts,bsnh->btnh", weights, value)


_ATTENTION = {}


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    """Scaled dot-product attention on ``(batch, length, heads, head_dim)`` inputs (Keras's layout)."""
    if attn_logits_soft_cap is not None:
        raise InvalidArgumentError("keras.ops.dot_product_attention: attn_logits_soft_cap is not supported; "
                                   "pass None.")
    query, key, value = prepare([query, key, value], "float")
    if len(query.shape) != 4:
        raise InvalidArgumentError("keras.ops.dot_product_attention expects 4-D (batch, length, heads, dim) "
                                   f"inputs; received query of shape {tuple(query.shape)}.")
    scale = float(1.0 / np.sqrt(query.shape[-1])) if scale is None else float(hashable(scale))
    key_ = (bias is not None, mask is not None)
    if key_ not in _ATTENTION:
        _ATTENTION[key_] = Op("dot_product_attention", lambda q, k, v, *extra, scale, is_causal: _attention(
            q, k, v, extra[0] if key_[0] else None, extra[-1] if key_[1] else None, scale, is_causal),
            static=("scale", "is_causal"))
    extra = ([tensor(bias, dtype_of(query))] if bias is not None else []) + (
        [tensor(mask, np.dtype("bool"))] if mask is not None else [])
    return call(_ATTENTION[key_], [query, key, value, *extra], {"scale": scale, "is_causal": bool(is_causal)})


OPS.update({"polar": define("polar", lambda a, t: a * jnp.exp(1j * t), "abs_, angle", "float")})

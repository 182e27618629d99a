"""Reductions: reduce_sum/mean/max/..., argmax/argmin, cumsum/cumprod, count_nonzero, confusion_matrix."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes, _tensor_names
from companion._core._convert import as_input
from companion._core._dispatch import composite
from companion._core._errors import InvalidArgumentError, InvalidArgumentTypeError, RuntimeCheckError
from companion._core._op import op
from companion._ops._math import cast, true_divide
from companion._ops._static import normalize_axes, normalize_axis, static_int

__all__ = [
    "argmax", "argmin", "confusion_matrix", "count_nonzero", "cumprod", "cumsum", "reduce_all",
    "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod",
    "reduce_std", "reduce_sum", "reduce_variance",
]


# -- pure reductions (axis: None or a tuple; keepdims: bool) --------------------------------

def _sum(x, axis, keepdims):
    return jnp.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _mean(x, axis, keepdims):
    if jnp.issubdtype(x.dtype, jnp.integer):
        count = np.prod([x.shape[a] for a in (range(x.ndim) if axis is None else axis)], dtype=np.int64)
        # summed in 64 bits, as TF's mean reducer accumulates (a uint8 image's mean is no 8-bit sum)
        wide = np.uint64 if jnp.issubdtype(x.dtype, jnp.unsignedinteger) else np.int64
        total = jnp.sum(x, axis=axis, keepdims=keepdims, dtype=wide)
        # an empty mean is 0, as TF's (an integer division by a count of 0 kills the process: SIGFPE)
        return jax.lax.div(total, jnp.asarray(max(count, 1), wide)).astype(x.dtype)  # truncates, as TF
    if x.dtype in (jnp.float16, jnp.bfloat16):  # summed in float32, as TF's half-precision mean
        return jnp.mean(x, axis=axis, keepdims=keepdims)
    count = np.prod([x.shape[a] for a in (range(x.ndim) if axis is None else axis)], dtype=np.int64)
    # the sum divided by the count, correctly rounded (XLA would multiply by 1/count: `true_divide`)
    return true_divide(jnp.sum(x, axis=axis, keepdims=keepdims), jnp.asarray(count, x.dtype))


def _extreme(fn, lowest):
    def reduce(x, axis, keepdims):
        return fn(x, axis=axis, keepdims=keepdims, initial=_limit(x.dtype, lowest) if x.size == 0 else None)

    return reduce


def _limit(dtype, lowest):
    if jnp.issubdtype(dtype, jnp.floating):
        return -jnp.inf if lowest else jnp.inf
    info = jnp.iinfo(dtype)
    return info.min if lowest else info.max


def _prod(x, axis, keepdims):
    return jnp.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _variance(x, axis, keepdims):
    return jnp.var(x, axis=axis, keepdims=keepdims)


def _std(x, axis, keepdims):
    return jnp.std(x, axis=axis, keepdims=keepdims)


def _logsumexp(x, axis, keepdims):
    return jax.nn.logsumexp(x, axis=axis, keepdims=keepdims)


# -- public reductions --------------------------------------------------------------------

def _reduction(name, fn, kinds, summary, example=""):
    pure = op(name, static=("axis", "keepdims"))(fn)

    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        if composite(input_tensor) is not None:  # TF's ragged dispatch
            return input_tensor._dispatch_reduce(reduce.__name__, reduce, axis, keepdims)
        x = as_input(input_tensor)
        _check_kind(x, kinds, pure.name)
        axes = normalize_axes(axis, x._v.ndim, pure.name)
        if name is not None:
            _tensor_names.given_name(name)
        return pure(x, axis=axes, keepdims=bool(keepdims))

    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = f"""{summary}

    Args:
        input_tensor: the tensor to reduce.
        axis: None (all dimensions), an int or a list of ints; negative axes count from the end.
        keepdims: if true, reduced dimensions are kept with size 1.
        name: the operation's name in a function's graph (``total:0``).
{example}"""
    return reduce


_KINDS = {"number": "a numeric (int, float or complex)", "real": "an int or float",
          "float": "a floating-point", "bool": "a bool"}


def _check_kind(x, kinds, name):
    dtype = x.dtype
    ok = {"number": dtype.is_numeric, "real": dtype.is_integer or dtype.is_floating,
          "float": dtype.is_floating or dtype.is_complex, "bool": dtype.is_bool}[kinds]
    if not ok:
        hint = ("companion.cast(x, companion.float32)" if kinds != "bool" else "x != 0")
        raise InvalidArgumentTypeError(f"{name} needs {_KINDS[kinds]} tensor, but received one of "
                                       f"dtype {dtype.name}: {x!s}. Convert it first, e.g. with {hint}.")


reduce_sum = _reduction("reduce_sum", _sum, "number", "The sum of elements across dimensions.", """
    Example:
        >>> import companion as tf
        >>> x = tf.constant([[1, 1, 1], [1, 1, 1]])
        >>> print(tf.reduce_sum(x))
        companion.Tensor(6, shape=(), dtype=int32)
        >>> print(tf.reduce_sum(x, axis=0))
        companion.Tensor([2 2 2], shape=(3,), dtype=int32)
""")
reduce_mean = _reduction("reduce_mean", _mean, "number", (
    "The mean of elements across dimensions; on integer tensors an integer mean, rounded "
    "towards zero, as TensorFlow."), """
    Example:
        >>> import companion as tf
        >>> print(tf.reduce_mean(tf.constant([1.0, 2.0])), tf.reduce_mean(tf.constant([1, 2])))
        companion.Tensor(1.5, shape=(), dtype=float32) companion.Tensor(1, shape=(), dtype=int32)
""")
reduce_max = _reduction("reduce_max", _extreme(jnp.max, lowest=True), "real",
                        "The maximum across dimensions (-inf, or the dtype's minimum, when empty).")
reduce_min = _reduction("reduce_min", _extreme(jnp.min, lowest=False), "real",
                        "The minimum across dimensions (inf, or the dtype's maximum, when empty).")
reduce_prod = _reduction("reduce_prod", _prod, "number", "The product of elements across dimensions.")
reduce_all = _reduction("reduce_all", jnp.all, "bool", "Logical AND across dimensions of a bool tensor.")
reduce_any = _reduction("reduce_any", jnp.any, "bool", "Logical OR across dimensions of a bool tensor.")
reduce_variance = _reduction("reduce_variance", _variance, "float",
                             "The population variance (divided by N) across dimensions.")
reduce_std = _reduction("reduce_std", _std, "float",
                        "The population standard deviation (divided by N) across dimensions.")
reduce_logsumexp = _reduction("reduce_logsumexp", _logsumexp, "float",
                              "``log(sum(exp(x)))`` across dimensions, computed without overflow.")


# -- arg reductions -------------------------------------------------------------------------

@op("argmax", static=("axis", "dtype"))
def _argmax(x, axis, dtype):
    return jnp.argmax(_ordered(x, -jnp.inf), axis=axis).astype(dtype)


@op("argmin", static=("axis", "dtype"))
def _argmin(x, axis, dtype):
    return jnp.argmin(_ordered(x, jnp.inf), axis=axis).astype(dtype)


def _ordered(x, nan_as):
    """``x`` as TF's arg reductions compare it: a NaN never wins (TF's kernel compares with ``>``,
    NumPy's picks the first NaN), and booleans as 0 and 1."""
    if x.dtype == jnp.bool_:
        return x.astype(jnp.int8)
    if jnp.issubdtype(x.dtype, jnp.floating):
        return jnp.where(jnp.isnan(x), jnp.asarray(nan_as, x.dtype), x)
    return x


def argmax(input, axis=None, output_type=_dtypes.int64, name=None):  # noqa: A002
    """The index of the largest value along ``axis`` (0 when None, as TF); ties give the first.

    Example:
        >>> import companion as tf
        >>> print(tf.argmax(tf.constant([[1, 9], [5, 2]]), axis=1))
        companion.Tensor([1 0], shape=(2,), dtype=int64)
    """
    return _arg_reduce(_argmax, input, axis, output_type)


def argmin(input, axis=None, output_type=_dtypes.int64, name=None):  # noqa: A002
    """The index of the smallest value along ``axis`` (0 when None, as TF); ties give the first."""
    return _arg_reduce(_argmin, input, axis, output_type)


def _arg_reduce(pure, x, axis, output_type):
    x = as_input(x)
    if not x.dtype.is_bool:  # TF takes booleans too: argmax finds the first True
        _check_kind(x, "real", pure.name)
    if x._v.ndim == 0:
        raise InvalidArgumentError(f"{pure.name} needs a tensor of rank >= 1. Received a scalar: {x!s}")
    dtype = _dtypes.as_dtype(output_type)
    if dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"{pure.name}: output_type must be companion.int32 or companion.int64. "
                        f"Received: output_type={output_type!r}")
    axis = normalize_axis(0 if axis is None else axis, x._v.ndim, pure.name)
    return pure(x, axis=axis, dtype=dtype._np)


# -- cumulative ops ---------------------------------------------------------------------------

@op("cumsum", static=("axis", "exclusive", "reverse"))
def _cumsum(x, axis, exclusive, reverse):
    return _cumulative(jax.lax.cumsum, 0, x, axis, exclusive, reverse)


@op("cumprod", static=("axis", "exclusive", "reverse"))
def _cumprod(x, axis, exclusive, reverse):
    return _cumulative(jax.lax.cumprod, 1, x, axis, exclusive, reverse)


def _cumulative(fn, identity, x, axis, exclusive, reverse):
    if exclusive:  # shift by one towards the running direction, filling with the identity
        pad = [(0, 0)] * x.ndim
        pad[axis] = (0, 1) if reverse else (1, 0)
        start = 1 if reverse else 0
        kept = jax.lax.slice_in_dim(x, start, x.shape[axis] - 1 + start, axis=axis)
        x = jnp.pad(kept, pad, constant_values=identity)
    return fn(x, axis=axis, reverse=reverse)


@op("cumulative_logsumexp", static=("axis", "exclusive", "reverse"))
def _cumulative_logsumexp(x, axis, exclusive, reverse):
    return _cumulative(jax.lax.cumlogsumexp, -jnp.inf, x, axis, exclusive, reverse)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sums along ``axis``; ``exclusive`` leaves out the current element, ``reverse`` runs backwards.

    Example:
        >>> import companion as tf
        >>> print(tf.cumsum(tf.constant([1, 2, 3]), exclusive=True))
        companion.Tensor([0 1 3], shape=(3,), dtype=int32)
    """
    return _cumulate(_cumsum, x, axis, exclusive, reverse)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running products along ``axis``; ``exclusive`` and ``reverse`` as in `cumsum`."""
    return _cumulate(_cumprod, x, axis, exclusive, reverse)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running ``log(sum(exp(x)))`` along ``axis``, without overflow; ``exclusive`` starts at ``-inf``.

    Example:
        >>> import companion as tf
        >>> print(tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0])))
        companion.Tensor([0.        0.6931472], shape=(2,), dtype=float32)
    """
    return _cumulate(_cumulative_logsumexp, x, axis, exclusive, reverse, "float")


def _cumulate(pure, x, axis, exclusive, reverse, kinds="number"):
    x = as_input(x)
    _check_kind(x, kinds, pure.name)
    if x._v.ndim == 0:
        raise InvalidArgumentError(f"{pure.name} needs a tensor of rank >= 1. Received a scalar: {x!s}")
    axis = normalize_axis(axis, x._v.ndim, pure.name)
    return pure(x, axis=axis, exclusive=bool(exclusive), reverse=bool(reverse))


# -- counting ---------------------------------------------------------------------------------

@op("count_nonzero", static=("axis", "keepdims", "dtype"))
def _count_nonzero(x, axis, keepdims, dtype):
    return jnp.sum(x != 0, axis=axis, keepdims=keepdims, dtype=dtype)


def count_nonzero(input, axis=None, keepdims=None, dtype=_dtypes.int64, name=None):  # noqa: A002
    """The number of non-zero (or true) elements across dimensions, as int64 by default."""
    x = as_input(input)
    axes = normalize_axes(axis, x._v.ndim, "count_nonzero")
    return _count_nonzero(x, axis=axes, keepdims=bool(keepdims), dtype=_dtypes.as_dtype(dtype)._np)


@op("confusion_matrix", static=("num_classes", "dtype"))
def _confusion_matrix(labels, predictions, weights, num_classes, dtype):
    counts = jnp.zeros((num_classes, num_classes), dtype)
    return counts.at[labels, predictions].add(weights, mode="drop")


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=_dtypes.int32,
                     name=None):
    """Counts of (label, prediction) pairs: row = true class, column = predicted class.

    As in TensorFlow, a size-1 last axis is squeezed away when the ranks of ``labels`` and
    ``predictions`` differ by one (labels ``(N,)`` beside rounded sigmoid outputs ``(N, 1)``), and
    the class ids are cast to int64 first, so float or bool classes are accepted (floats are
    truncated toward zero).

    Args:
        labels: 1-D tensor of true classes in ``[0, num_classes)``.
        predictions: 1-D tensor of predicted classes, same length.
        num_classes: the matrix size; when None, one more than the largest class seen
            (eager only).
        weights: optional 1-D weights added instead of 1 per pair.
        dtype: the matrix dtype (int32 by default).
        name: accepted for TensorFlow compatibility; unused.

    Example:
        >>> import companion as tf
        >>> print(tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]))
        companion.Tensor(
        [[0 0 0 0 0]
         [0 0 1 0 0]
         [0 0 1 0 0]
         [0 0 0 0 0]
         [0 0 0 0 1]], shape=(5, 5), dtype=int32)
    """
    labels, predictions = _squeeze_rank_difference(as_input(labels), as_input(predictions))
    labels, predictions = _class_vector(labels, "labels"), _class_vector(predictions, "predictions")
    if labels._v.shape != predictions._v.shape:
        raise InvalidArgumentError(f"confusion_matrix: labels and predictions must have one length. "
                                   f"Received shapes {labels._v.shape} and {predictions._v.shape}.")
    dtype = _dtypes.as_dtype(dtype)
    num_classes = _num_classes(num_classes, labels, predictions)
    weights = cast(1 if weights is None else weights, dtype)
    return _confusion_matrix(labels, predictions, weights, num_classes=num_classes, dtype=dtype._np)


def _squeeze_rank_difference(labels, predictions):
    """TF's `remove_squeezable_dimensions`: drop a size-1 last axis of the one with one more rank."""
    difference = predictions._v.ndim - labels._v.ndim
    if difference == 1 and predictions._v.shape[-1] == 1:
        predictions = predictions[..., 0]
    elif difference == -1 and labels._v.shape[-1] == 1:
        labels = labels[..., 0]
    return labels, predictions


def _class_vector(values, what):
    if values._v.ndim != 1 or not (values.dtype.is_integer or values.dtype.is_floating
                                       or values.dtype.is_bool):
        raise TypeError(f"confusion_matrix: {what} must be a 1-D tensor of class ids (numbers). "
                        f"Received dtype {values.dtype.name} and shape {values._v.shape}: {values!s}")
    if not values.dtype.is_integer:
        values = cast(values, _dtypes.int64)  # as TF: float class ids are truncated toward zero
    if not values.is_traced and values._value.size and np.asarray(values).min() < 0:
        raise RuntimeCheckError(f"confusion_matrix: `{what}` contains negative values: {values!s}. "
                                "Class ids must be in [0, num_classes).")
    return values


def _num_classes(num_classes, labels, predictions):
    if num_classes is not None:
        count = static_int(num_classes, "confusion_matrix: num_classes")
        for what, t in (("labels", labels), ("predictions", predictions)):
            if not t.is_traced and t._value.size and np.asarray(t).max() >= count:
                raise RuntimeCheckError(f"confusion_matrix: `{what}` out of bound: a class id is >= "
                                        f"num_classes={count}. Received {what}: {t!s}")
        return count
    if labels.is_traced or predictions.is_traced:
        raise TypeError("confusion_matrix: pass num_classes inside a traced function (the matrix "
                        "size cannot depend on the values there).")
    largest = [int(np.asarray(t).max()) for t in (labels, predictions) if t._value.size]
    return max(largest, default=-1) + 1

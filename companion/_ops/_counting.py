"""Counting and grouping: bincount, the segment reductions (sum, mean, max, min, prod, sqrt_n;
sorted ``segment_*`` and ``unsorted_segment_*``), and in_top_k.

The number of bins or segments sets the result's shape, so it must be known when the op
runs: eagerly it is read from the values, inside a staged function it must be given
(``minlength == maxlength`` for bincount, ``num_segments`` for unsorted_segment_sum).
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._op import op
from companion._core._tensor import Tensor
from companion._ops._math import cast
from companion._ops._static import static_int

_KINDS = ("sum", "mean", "max", "min", "prod", "sqrt_n")
__all__ = ["bincount", "histogram_fixed_width", "histogram_fixed_width_bins", "in_top_k",
           *(f"segment_{k}" for k in _KINDS[:5]),
           *(f"unsorted_segment_{k}" for k in _KINDS)]


@op("unsorted_segment_reduce", static=("num_segments", "kind", "empty_zero"))
def _segment_reduce(data, ids, num_segments, kind="sum", empty_zero=True):
    """One segment reduction; an empty segment gives 0 when ``empty_zero`` (sorted ops), else the
    reduction's identity (the dtype's lowest value for max, its highest for min, 1 for prod)."""
    flat_ids = jnp.reshape(ids, (-1,))
    flat = jnp.reshape(data, (flat_ids.shape[0],) + data.shape[ids.ndim:])
    flat_ids = jnp.where(flat_ids < 0, num_segments, flat_ids)  # negative ids are dropped, as TF
    if kind in ("sum", "mean", "sqrt_n"):
        out = jax.ops.segment_sum(flat, flat_ids, num_segments=num_segments)
        if kind == "sum":
            return out
        counts = jax.ops.segment_sum(jnp.ones(flat_ids.shape, out.dtype), flat_ids, num_segments=num_segments)
        counts = jnp.reshape(jnp.maximum(counts, 1), counts.shape + (1,) * (out.ndim - 1))
        if kind == "mean" and not jnp.issubdtype(out.dtype, jnp.inexact):
            if empty_zero:  # TF's segment_mean kernel: the integer quotient, truncated
                return jax.lax.div(out, counts)
            # TF's unsorted_segment_mean divides with truediv: float64 for 32/64-bit integers
            wide = jnp.float64 if out.dtype.itemsize >= 4 else jnp.float32
            return out.astype(wide) / counts.astype(wide)
        return out / (counts if kind == "mean" else jnp.sqrt(counts))
    if kind == "prod":  # one-hot masks: jax's segment_prod has no gradient for repeated ids
        member = flat_ids[None, :] == jnp.arange(num_segments)[:, None]
        member = jnp.reshape(member, member.shape + (1,) * (flat.ndim - 1))
        return jnp.prod(jnp.where(member, flat[None], jnp.ones((), flat.dtype)), axis=1, dtype=flat.dtype)
    reduce = {"max": jax.ops.segment_max, "min": jax.ops.segment_min}[kind]
    out = reduce(flat, flat_ids, num_segments=num_segments)
    present = jax.ops.segment_sum(jnp.ones(flat_ids.shape, jnp.int32), flat_ids, num_segments=num_segments)
    present = jnp.reshape(present > 0, present.shape + (1,) * (out.ndim - 1))
    info = jnp.finfo if jnp.issubdtype(out.dtype, jnp.inexact) else jnp.iinfo
    empty = 0 if empty_zero else (info(out.dtype).min if kind == "max" else info(out.dtype).max)
    return jnp.where(present, out, jnp.asarray(empty, out.dtype))


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums the slices of ``data`` that share a segment id: ``out[i] = sum(data[j] where ids[j] == i)``.

    ``segment_ids`` covers the leading dimensions of ``data``; ids need not be sorted,
    segments with no entries are 0 and negative ids are dropped.

    Example:
        >>> import companion as tf
        >>> data = tf.constant([[1, 2], [5, 6], [3, 4]])
        >>> print(tf.math.unsorted_segment_sum(data, [0, 1, 0], num_segments=2))
        companion.Tensor(
        [[4 6]
         [5 6]], shape=(2, 2), dtype=int32)
    """
    return _unsorted(data, segment_ids, num_segments, "sum")


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """The mean of the slices of ``data`` that share a segment id (0 for an empty segment)."""
    return _unsorted(data, segment_ids, num_segments, "mean")


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """The sum of each segment's slices divided by the square root of their count (0 if empty)."""
    return _unsorted(data, segment_ids, num_segments, "sqrt_n")


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """The maximum of each segment's slices; an empty segment gives the dtype's lowest value, as TF."""
    return _unsorted(data, segment_ids, num_segments, "max")


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """The minimum of each segment's slices; an empty segment gives the dtype's highest value, as TF."""
    return _unsorted(data, segment_ids, num_segments, "min")


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """The product of each segment's slices (1 for an empty segment)."""
    return _unsorted(data, segment_ids, num_segments, "prod")


def segment_sum(data, segment_ids, name=None):
    """Sums runs of slices of ``data`` with equal, sorted ``segment_ids`` (a 1-D tensor).

    The result has ``max(segment_ids) + 1`` rows, so the ids must be concrete (inside a
    function use `unsorted_segment_sum` with ``num_segments``). Ids that no slice has give 0.

    Example:
        >>> import companion as tf
        >>> print(tf.math.segment_sum(tf.constant([1, 2, 3, 4]), [0, 0, 2, 2]))
        companion.Tensor([3 0 7], shape=(3,), dtype=int32)
    """
    return _sorted(data, segment_ids, "sum")


def segment_mean(data, segment_ids, name=None):
    """The mean of each run of equal, sorted ``segment_ids`` (see `segment_sum`).

    Example:
        >>> import companion as tf
        >>> print(tf.math.segment_mean(tf.constant([1.0, 2.0, 3.0]), [0, 0, 1]))
        companion.Tensor([1.5 3. ], shape=(2,), dtype=float32)
    """
    return _sorted(data, segment_ids, "mean")


def segment_max(data, segment_ids, name=None):
    """The maximum of each run of equal, sorted ``segment_ids`` (0 for an id no slice has)."""
    return _sorted(data, segment_ids, "max")


def segment_min(data, segment_ids, name=None):
    """The minimum of each run of equal, sorted ``segment_ids`` (0 for an id no slice has)."""
    return _sorted(data, segment_ids, "min")


def segment_prod(data, segment_ids, name=None):
    """The product of each run of equal, sorted ``segment_ids`` (1 for an id no slice has)."""
    return _sorted(data, segment_ids, "prod")


def _unsorted(data, segment_ids, num_segments, kind):
    what = f"unsorted_segment_{kind}"
    data, ids = _segment_inputs(data, segment_ids, what)
    count = static_int(num_segments, f"{what}: num_segments")
    if not ids.is_traced and np.asarray(ids).size and int(np.max(np.asarray(ids))) >= count:
        raise RuntimeCheckError(
            f"{what}: segment id {int(np.max(np.asarray(ids)))} is not in [0, {count}). "
            f"Give num_segments larger than the largest id. Received: num_segments={num_segments!r}")
    return _segment_reduce(data, ids, num_segments=count, kind=kind, empty_zero=False)


def _sorted(data, segment_ids, kind):
    what = f"segment_{kind}"
    data, ids = _segment_inputs(data, segment_ids, what)
    if ids.is_traced:
        raise TypeError(f"{what}: the number of segments (max(segment_ids) + 1) sets the result's "
                        "shape, so segment_ids must be concrete. Inside a function use "
                        f"companion.math.unsorted_segment_{kind}(data, ids, num_segments=N).")
    array = np.asarray(ids)
    if array.ndim != 1 or np.any(np.diff(array) < 0) or np.any(array < 0):
        raise RuntimeCheckError(f"{what}: segment_ids must be a 1-D, sorted, non-negative tensor. "
                                f"Received: segment_ids={ids!s}")
    count = int(array.max()) + 1 if array.size else 0
    return _segment_reduce(data, ids, num_segments=count, kind=kind, empty_zero=True)


def _segment_inputs(data, segment_ids, what):
    data, ids = as_input(data), as_input(segment_ids)
    if not ids.dtype.is_integer:
        raise TypeError(f"{what}: segment_ids must be an integer tensor. Received dtype {ids.dtype.name}: "
                        f"{ids!s}. Cast it with companion.cast(ids, companion.int32).")
    if data._v.shape[:ids._v.ndim] != ids._v.shape:
        raise InvalidArgumentError(
            f"{what}: segment_ids (shape {ids._v.shape}) must have the shape of the leading "
            f"dimensions of data (shape {data._v.shape}).")
    return data, ids


@op("bincount", static=("length", "binary"))
def _bincount(values, weights, length, binary):
    flat = jnp.reshape(values, (-1,))
    flat = jnp.where((flat < 0) | (flat >= length), length, flat)  # dropped
    counts = jax.ops.segment_sum(jnp.reshape(weights, (-1,)), flat, num_segments=length)
    return (counts > 0).astype(weights.dtype) if binary else counts


@op("histogram_fixed_width_bins", static=("nbins", "dtype"))
def _histogram_bins(values, value_range, nbins, dtype):
    scaled = (values - value_range[0]) / (value_range[1] - value_range[0])  # ints: true division
    index = jnp.floor(nbins * scaled)
    return jnp.clip(index, 0, nbins - 1).astype(dtype)


@op("histogram_fixed_width", static=("nbins", "dtype"))
def _histogram(values, value_range, nbins, dtype):
    bins = jnp.ravel(_histogram_bins.fn(values, value_range, nbins, np.int32))
    return jnp.zeros(nbins, dtype).at[bins].add(jnp.ones_like(bins, dtype))


_bincount.differentiable = "DenseBincount"  # no gradient registered in TF: a tape's gradient
_histogram.differentiable = "HistogramFixedWidth"  # through either raises TF's LookupError


def _histogram_inputs(values, value_range, nbins, what):
    values, value_range = as_input(values), as_input(value_range)
    if not values.dtype.is_numeric or values.dtype.is_complex:
        raise TypeError(f"{what} needs real numeric values. Received dtype {values.dtype.name}.")
    if tuple(value_range.shape) != (2,):
        raise InvalidArgumentError(f"{what}: value_range must be [low, high] (shape [2]). Received shape "
                                   f"{list(value_range.shape)}.")
    count = static_int(nbins, f"{what}: nbins")
    if count <= 0:
        raise InvalidArgumentError(f"{what}: nbins must be positive. Received nbins={count}.")
    return values, cast(value_range, values.dtype), count


def histogram_fixed_width(values, value_range, nbins=100, dtype=_dtypes.int32, name=None):
    """Counts ``values`` in ``nbins`` equal bins over ``value_range = [low, high]``; values below
    ``low`` count in the first bin and values above ``high`` in the last, as TF.

    Example:
        >>> import companion as tf
        >>> tf.histogram_fixed_width([0.0, 0.1, 0.5, 0.9, 1.0, -3.0], [0.0, 1.0], nbins=4).numpy().tolist()
        [3, 0, 1, 2]
    """
    values, value_range, count = _histogram_inputs(values, value_range, nbins, "histogram_fixed_width")
    return _histogram(values, value_range, nbins=count, dtype=_dtypes.as_dtype(dtype)._np)


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=_dtypes.int32, name=None):
    """The bin of each element of ``values`` (same shape) for `histogram_fixed_width`'s bins."""
    values, value_range, count = _histogram_inputs(values, value_range, nbins, "histogram_fixed_width_bins")
    return _histogram_bins(values, value_range, nbins=count, dtype=_dtypes.as_dtype(dtype)._np)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_dtypes.int32, name=None,
             axis=None, binary_output=False):
    """Counts how often each value occurs in the non-negative integer tensor ``arr``.

    The result has ``max(arr) + 1`` entries, at least ``minlength`` and at most
    ``maxlength`` (larger values are dropped). With ``weights`` (same shape as ``arr``) it
    sums them instead of counting ones, and takes their dtype. Inside a function the length
    must be fixed: pass ``minlength == maxlength``. Only ``axis=None`` (count over all
    values) is supported.

    Example:
        >>> import companion as tf
        >>> print(tf.math.bincount(tf.constant([1, 1, 2, 3, 2, 4, 4, 5])))
        companion.Tensor([0 2 2 1 2 1], shape=(6,), dtype=int32)
    """
    arr = as_input(arr)
    if not arr.dtype.is_integer:
        raise TypeError(f"bincount: arr must be an integer tensor. Received dtype {arr.dtype.name}: {arr!s}.")
    if axis not in (None, 0) or (axis == 0 and arr._v.ndim != 1):
        raise NotImplementedError(f"bincount: only axis=None is supported (count over all values). "
                                  f"Received: axis={axis!r}")
    low = None if minlength is None else static_int(minlength, "bincount: minlength")
    high = None if maxlength is None else static_int(maxlength, "bincount: maxlength")
    if arr.is_traced:
        if low is None or low != high:
            raise TypeError("bincount: inside a function the result's length must be fixed, because it "
                            "sets the shape. Pass minlength and maxlength with the same value. "
                            f"Received: minlength={minlength!r}, maxlength={maxlength!r}")
        length = low
    else:
        array = np.asarray(arr)
        length = int(array.max()) + 1 if array.size else 0
        length = max(length, low or 0)
        length = length if high is None else min(length, high)
    if weights is None:
        weights = Tensor(jnp.ones(arr._v.shape, _dtypes.as_dtype(dtype).as_numpy_dtype))
    else:
        weights = as_input(weights)
        if weights._v.shape != arr._v.shape:
            raise InvalidArgumentError(f"bincount: weights (shape {weights._v.shape}) must have the "
                                       f"shape of arr ({arr._v.shape}).")
    return _bincount(arr, weights, length=length, binary=bool(binary_output))


@op("in_top_k", static=("k",))
def _in_top_k(predictions, targets, k):
    rows = jnp.arange(predictions.shape[0])
    valid = (targets >= 0) & (targets < predictions.shape[1])
    target = predictions[rows, jnp.clip(targets, 0, predictions.shape[1] - 1)]
    higher = jnp.sum(predictions > target[:, None], axis=1)
    finite = jnp.all(jnp.isfinite(predictions), axis=1)
    return valid & finite & (higher < k)


def in_top_k(targets, predictions, k, name=None):
    """Whether each row's target class is among the ``k`` highest ``predictions`` of that row.

    ``predictions`` is ``[batch, classes]``, ``targets`` ``[batch]`` class ids. Ties
    straddling the k-th place all count as in the top k; a row with a non-finite
    prediction, or an out-of-range target, gives False.

    Example:
        >>> import companion as tf
        >>> p = tf.constant([[0.1, 0.3, 0.6], [0.5, 0.4, 0.1]])
        >>> print(tf.math.in_top_k([1, 2], p, k=2))
        companion.Tensor([ True False], shape=(2,), dtype=bool)
    """
    predictions, targets = as_input(predictions), as_input(targets)
    if predictions._v.ndim != 2 or targets._v.shape != predictions._v.shape[:1]:
        raise InvalidArgumentError(
            f"in_top_k: predictions must be [batch, classes] and targets [batch]. Received shapes "
            f"{predictions._v.shape} and {targets._v.shape}.")
    if not targets.dtype.is_integer:
        raise TypeError(f"in_top_k: targets must be integer class ids. Received dtype {targets.dtype.name}.")
    return _in_top_k(predictions, targets, k=static_int(k, "in_top_k: k"))

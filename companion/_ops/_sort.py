"""Sorting: sort, argsort, top_k, and unique / unique_with_counts (eager)."""

import collections

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._op import Op, op
from companion._core._tensor import Tensor
from companion._ops._kernel_dtypes import kernel_name, no_kernel_error, unsupported_dtype_error
from companion._ops._static import normalize_axis, static_int

__all__ = ["argsort", "sort", "top_k", "unique", "unique_with_counts"]

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


@op("sort", static=("axis", "descending"))
def _sort(x, axis, descending):
    return jnp.sort(x, axis=axis, stable=True, descending=descending)


@op("argsort", static=("axis", "descending"))
def _argsort(x, axis, descending):
    return jnp.argsort(x, axis=axis, stable=True, descending=descending).astype(jnp.int32)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``values`` sorted along ``axis`` (the last by default), ``"ASCENDING"`` or ``"DESCENDING"``.

    Example:
        >>> import companion as tf
        >>> print(tf.sort(tf.constant([3, 1, 2]), direction="DESCENDING"))
        companion.Tensor([3 2 1], shape=(3,), dtype=int32)
    """
    values, axis, descending = _sort_args(values, axis, direction, "sort")
    return _sort(values, axis=axis, descending=descending)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 indices that sort ``values`` along ``axis``; equal values keep their order.

    Example:
        >>> import companion as tf
        >>> print(tf.argsort(tf.constant([30, 10, 20])))
        companion.Tensor([1 2 0], shape=(3,), dtype=int32)
    """
    values, axis, descending = _sort_args(values, axis, direction, "argsort")
    return _argsort(values, axis=axis, descending=descending)


def _sort_args(values, axis, direction, what):
    values = as_input(values)
    if not (values.dtype.is_integer or values.dtype.is_floating):
        raise TypeError(f"{what} needs an int or float tensor. Received dtype {values.dtype.name}: "
                        f"{values!s}. Convert it first with companion.cast.")
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"{what}: direction must be 'ASCENDING' or 'DESCENDING'. "
                         f"Received: direction={direction!r}")
    if values._v.ndim == 0:
        raise InvalidArgumentError(f"{what} needs a tensor of rank >= 1. Received a scalar: {values!s}")
    return values, normalize_axis(axis, values._v.ndim, what), direction == "DESCENDING"


@op("top_k", static=("k", "dtype"))
def _top_k(x, k, dtype):
    values, indices = jax.lax.top_k(x, k)
    return values, indices.astype(dtype)


def top_k(input, k=1, sorted=True, index_type=_dtypes.int32, name=None):  # noqa: A002
    """The ``k`` largest entries along the last axis, largest first, and their (int32) indices.

    Among equal values the lower index comes first. Returns a named tuple
    ``(values, indices)``; the result is always sorted.

    Example:
        >>> import companion as tf
        >>> result = tf.math.top_k(tf.constant([1, 5, 3, 5]), k=2)
        >>> print(result.values)
        companion.Tensor([5 5], shape=(2,), dtype=int32)
        >>> print(result.indices)
        companion.Tensor([1 3], shape=(2,), dtype=int32)
    """
    x = as_input(input)
    if not (x.dtype.is_integer or x.dtype.is_floating) or x._v.ndim == 0:
        raise TypeError(f"top_k needs an int or float tensor of rank >= 1. Received: {x!s}")
    k = static_int(k, "top_k: k")
    last = x._v.shape[-1]
    if not 0 <= k <= last:
        raise InvalidArgumentError(f"top_k: input must have at least k columns. Had {last}, needed "
                                   f"{k}. Pass k between 0 and {last}. Received: k={k}")
    dtype = _dtypes.as_dtype(index_type)
    if dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"top_k: index_type must be companion.int32 or companion.int64. "
                        f"Received: index_type={index_type!r}")
    return TopKV2(*_top_k(x, k=k, dtype=dtype._np))


def _first_rows(x, index):
    return jnp.take(x, index, axis=0)


# the distinct values: TF registers no gradient for Unique(WithCounts), so a tape's gradient through
# them raises TF's LookupError (an Op each, for the op type the message names)
_unique_values = Op("unique", _first_rows)
_unique_values.differentiable = "Unique"
_unique_with_counts_values = Op("unique_with_counts", _first_rows)
_unique_with_counts_values.differentiable = "UniqueWithCounts"


def unique(x, out_idx=_dtypes.int32, name=None):
    """The distinct values of a 1-D tensor in order of first appearance, and each element's position.

    Eager only (the result's size depends on the values). ``x == tf.gather(y, idx)``.

    Example:
        >>> import companion as tf
        >>> y, idx = tf.unique(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))
        >>> print(y)
        companion.Tensor([1 2 4 7 8], shape=(5,), dtype=int32)
        >>> print(idx)
        companion.Tensor([0 0 1 2 2 2 3 4 4], shape=(9,), dtype=int32)
    """
    y, idx, _ = _unique_parts(x, out_idx, "unique")
    return Unique(y, idx)


def unique_with_counts(x, out_idx=_dtypes.int32, name=None):
    """Like `unique`, plus how often each distinct value occurs."""
    return UniqueWithCounts(*_unique_parts(x, out_idx, "unique_with_counts"))


def _unique_parts(x, out_idx, what):
    x = as_input(x)
    if x._v.ndim != 1 or x.is_traced:
        raise InvalidArgumentError(f"{what} needs a concrete 1-D tensor (its result's size depends on the "
                                   f"values, so it cannot run on traced tensors). Received: {x!s}")
    array = np.asarray(x)
    _, first, inverse, counts = np.unique(array, return_index=True, return_inverse=True,
                                          return_counts=True)
    order = np.argsort(first)
    position = np.empty_like(order)
    position[order] = np.arange(len(order))
    dtype = _dtypes.as_dtype(out_idx)._np
    rows = _unique_values if what == "unique" else _unique_with_counts_values
    kept = first[order]
    y = Tensor(array[kept]) if x.dtype == _dtypes.string else rows(x, Tensor(jnp.asarray(kept)))
    idx = Tensor(jnp.asarray(position[inverse.ravel()].astype(dtype)))
    return y, idx, Tensor(jnp.asarray(counts[order].astype(dtype)))


ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """``(values, indices)`` of the ``k`` largest entries along ``reduction_dimension``, largest first.

    TensorFlow approximates on TPUs; elsewhere it is exact, as here (``recall_target`` and the other
    tuning arguments change nothing). Like TensorFlow's CPU kernel (a `top_k`), only the last dimension
    is taken: another one raises TF's NotFoundError (no kernel); use `top_k` on a transposed tensor.

    Example:
        >>> import companion as tf
        >>> print(tf.math.approx_max_k(tf.constant([3.0, 1.0, 4.0]), 2).indices)
        companion.Tensor([2 0], shape=(2,), dtype=int32)
    """
    return _approx("approx_max_k", operand, k, reduction_dimension, True)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """``(values, indices)`` of the ``k`` smallest entries, smallest first (see `approx_max_k`).

    TensorFlow registers no CPU kernel for it: it raises TF's NotFoundError (InvalidArgumentError
    inside a function), as TF does on a CPU. Use ``top_k(-x)`` instead.
    """
    return _approx("approx_min_k", operand, k, reduction_dimension, False)


def _approx(what, operand, k, dimension, largest):
    x = as_input(operand)
    if x.dtype.name not in ("float16", "bfloat16", "float32"):
        raise unsupported_dtype_error()(
            f"Value for attr 'T' of {kernel_name(x.dtype.name)} is not in the list of allowed values: half, "
            f"bfloat16, float\n{what} takes float32, float16 or bfloat16 tensors: cast it first. "
            "[Op:ApproxTopK]")
    if x._v.ndim == 0:
        raise InvalidArgumentError(f"{what} needs a tensor of rank >= 1. Received a scalar.")
    axis = normalize_axis(dimension, x._v.ndim, what)
    k = static_int(k, f"{what}: k")
    if not largest or axis != x._v.ndim - 1:  # TF's CPU kernel is TopKV2: the largest, along the last axis
        raise no_kernel_error("ApproxTopK", x.dtype.name, f", aggregate_to_topk=true, is_max_k="
                              f"{'true' if largest else 'false'}, k={k}, reduction_dimension={axis}")
    size = x._v.shape[axis]
    if not 0 <= k <= size:
        raise InvalidArgumentError(f"input must have at least k columns. Had {size}, needed {k} ({what}).")
    return ApproxTopK(*_top_k(x, k=k, dtype=np.int32))  # exact; ties: the lower index first, as TF

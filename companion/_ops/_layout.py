"""More layout ops: roll, reverse_sequence, repeat, meshgrid, sequence_mask, searchsorted and
unravel_index."""

import functools

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._op import op
from companion._ops._array import reshape
from companion._ops._static import normalize_axis, static_int, static_ints

__all__ = ["meshgrid", "repeat", "reverse_sequence", "roll", "searchsorted", "sequence_mask", "unravel_index"]


@op("roll", static=("axis",))
def _roll(x, shift, axis):
    shifts = jnp.broadcast_to(jnp.reshape(shift, (-1,)), (len(axis),))
    for i, a in enumerate(axis):  # a repeated axis adds its shifts, as TF
        x = jnp.roll(x, shifts[i], axis=a)
    return x


def roll(input, shift, axis, name=None):  # noqa: A002 - TensorFlow's argument name
    """Rotates ``input`` by ``shift`` places along ``axis`` (each may be a list); entries wrap around.

    ``shift`` may be a tensor computed inside a function.

    Example:
        >>> import companion as tf
        >>> print(tf.roll(tf.constant([0, 1, 2, 3, 4]), shift=2, axis=0))
        companion.Tensor([3 4 0 1 2], shape=(5,), dtype=int32)
    """
    input = as_input(input)
    shift = as_input(shift)
    axes = tuple(normalize_axis(a, input._v.ndim, "roll") for a in static_ints(axis, "roll: axis"))
    if not shift.dtype.is_integer or shift._value.size not in (1, len(axes)):
        raise InvalidArgumentError(f"roll: shift must be an integer (or one per axis) and axis name "
                                   f"dimensions of the tensor. Received: shift={shift!s}, axis={axis!r}")
    return _roll(input, shift, axis=axes)


@op("reverse_sequence", static=("seq_axis", "batch_axis"))
def _reverse_sequence(x, lengths, seq_axis, batch_axis):
    steps = jnp.arange(x.shape[seq_axis])[None, :]
    lengths = lengths.astype(jnp.int32)[:, None]
    index = jnp.where(steps < lengths, lengths - 1 - steps, steps)  # [batch, steps]
    if batch_axis > seq_axis:
        index = index.T
    shape = [1] * x.ndim
    shape[batch_axis], shape[seq_axis] = x.shape[batch_axis], x.shape[seq_axis]
    return jnp.take_along_axis(x, jnp.broadcast_to(jnp.reshape(index, shape), x.shape), axis=seq_axis)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Reverses the first ``seq_lengths[i]`` entries along ``seq_axis`` of each slice ``i`` along
    ``batch_axis`` (default 0); the entries after them stay in place.

    Example:
        >>> import companion as tf
        >>> print(tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1))
        companion.Tensor(
        [[2 1 3]
         [6 5 4]], shape=(2, 3), dtype=int32)
    """
    input = as_input(input)
    lengths = as_input(seq_lengths)
    if seq_axis is None:
        raise ValueError("reverse_sequence needs seq_axis, the axis to reverse along. Received: "
                         "seq_axis=None. Pass e.g. seq_axis=1 for [batch, time, ...] inputs.")
    ndim = input._v.ndim
    seq_axis = normalize_axis(static_int(seq_axis, "reverse_sequence: seq_axis"), ndim, "reverse_sequence")
    batch_axis = normalize_axis(static_int(0 if batch_axis is None else batch_axis,
                                           "reverse_sequence: batch_axis"), ndim, "reverse_sequence")
    if seq_axis == batch_axis:
        raise InvalidArgumentError(f"reverse_sequence: seq_axis and batch_axis must differ. Received "
                                   f"both = {seq_axis}.")
    batch = input._v.shape[batch_axis]
    if not lengths.dtype.is_integer or tuple(lengths._v.shape) != (batch,):
        raise InvalidArgumentError(f"reverse_sequence: seq_lengths must be a 1-D integer tensor with one "
                                   f"length per batch entry ({batch}, the size of batch_axis "
                                   f"{batch_axis}). Received: {lengths!s}")
    if not lengths.is_traced:
        values = np.asarray(lengths)
        longest = input._v.shape[seq_axis]
        if values.size and (values.min() < 0 or values.max() > longest):
            raise RuntimeCheckError(f"reverse_sequence: every seq_length must lie in [0, "
                                    f"{longest}] (the size of seq_axis {seq_axis}). Received: "
                                    f"seq_lengths={values.tolist()}")
    return _reverse_sequence(input, lengths, seq_axis=seq_axis, batch_axis=batch_axis)


@op("repeat", static=("repeats", "axis", "total"))
def _repeat(x, repeats, axis, total):
    if axis is None:
        x, axis = jnp.reshape(x, (-1,)), 0
    return jnp.repeat(x, np.asarray(repeats) if len(repeats) > 1 else repeats[0], axis=axis,
                      total_repeat_length=total)


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Repeats each element (or slice along ``axis``) ``repeats`` times; ``axis=None`` flattens first.

    ``repeats`` is one count or one per slice; it sets the result's shape, so it must be
    known when the op runs.

    Example:
        >>> import companion as tf
        >>> print(tf.repeat(tf.constant([[1, 2], [3, 4]]), repeats=[1, 2], axis=0))
        companion.Tensor(
        [[1 2]
         [3 4]
         [3 4]], shape=(3, 2), dtype=int32)
    """
    input = as_input(input)
    counts = static_ints(repeats, "repeat: repeats")
    shape = input._v.shape
    if axis is not None:
        axis = normalize_axis(axis, len(shape), "repeat")
    size = int(np.prod(shape)) if axis is None else shape[axis]
    if len(counts) not in (1, size) or min(counts, default=0) < 0:
        raise InvalidArgumentError(f"repeat: repeats must be one non-negative count or one per slice "
                                   f"({size} along the axis). Received: repeats={repeats!r}")
    total = sum(counts) if len(counts) > 1 else counts[0] * size
    return _repeat(input, repeats=counts, axis=axis, total=total)


@op("meshgrid", static=("indexing",))
def _meshgrid(*xs, indexing):
    return tuple(jnp.meshgrid(*xs, indexing=indexing))


def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D tensors: ``indexing="xy"`` (default, Cartesian) or ``"ij"`` (matrix).

    Example:
        >>> import companion as tf
        >>> X, Y = tf.meshgrid([1, 2, 3], [4, 5])
        >>> print(X.shape, Y.numpy().tolist())
        (2, 3) [[4, 4, 4], [5, 5, 5]]
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid got unexpected keyword arguments {sorted(kwargs)}; it takes "
                        "tensors, indexing and name.")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij'. Received: indexing={indexing!r}")
    tensors = [as_input(a) for a in args]
    if not tensors:
        return []
    tensors = [t if t._v.ndim == 1 else _flat(t) for t in tensors]
    return list(_meshgrid(*tensors, indexing=indexing))


def _flat(t):
    return reshape(t, [-1])


@op("sequence_mask", static=("maxlen", "dtype"))
def _sequence_mask(lengths, maxlen, dtype):
    return (jnp.arange(maxlen) < lengths[..., None]).astype(dtype)


def sequence_mask(lengths, maxlen=None, dtype=_dtypes.bool, name=None):
    """``mask[..., j] = j < lengths[...]``: a mask of the first ``lengths`` places of each row.

    ``maxlen`` (the last dimension) defaults to ``max(lengths)``, which needs concrete lengths.

    Example:
        >>> import companion as tf
        >>> print(tf.sequence_mask([1, 3, 2], 5))
        companion.Tensor(
        [[ True False False False False]
         [ True  True  True False False]
         [ True  True False False False]], shape=(3, 5), dtype=bool)
    """
    lengths = as_input(lengths)
    if maxlen is None:
        if lengths.is_traced:
            raise TypeError("sequence_mask: without maxlen the mask's width is max(lengths), which "
                            "sets the shape, so lengths must be concrete. Pass maxlen inside a function.")
        array = np.asarray(lengths)
        maxlen = int(array.max()) if array.size else 0
    maxlen = static_int(maxlen, "sequence_mask: maxlen")
    return _sequence_mask(lengths, maxlen=maxlen, dtype=_dtypes.as_dtype(dtype).as_numpy_dtype)


@op("searchsorted", static=("side", "dtype"))
def _searchsorted(sorted_sequence, values, side, dtype):
    search = functools.partial(jnp.searchsorted, side=side)
    for _ in range(sorted_sequence.ndim - 1):
        search = jax.vmap(search)
    return search(sorted_sequence, values).astype(dtype)


def searchsorted(sorted_sequence, values, side="left", out_type=_dtypes.int32, name=None):
    """Where each of ``values`` would be inserted in ``sorted_sequence`` (along its last axis).

    Leading dimensions are batch dimensions shared by both tensors; ``side="right"`` puts
    equal values after the existing ones.

    Example:
        >>> import companion as tf
        >>> print(tf.searchsorted([0.0, 1.0, 2.0], [1.0, 1.5, -3.0]))
        companion.Tensor([1 2 0], shape=(3,), dtype=int32)
    """
    sequence, values = as_input(sorted_sequence), as_input(values)
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right'. Received: side={side!r}")
    s, v = sequence._v.shape, values._v.shape
    if len(s) == 0 or s[:-1] != v[:-1] or len(v) == 0:
        raise InvalidArgumentError(f"searchsorted: sorted_sequence and values must share all but their "
                                   f"last dimension. Received shapes {s} and {v}.")
    return _searchsorted(sequence, values, side=side, dtype=_dtypes.as_dtype(out_type).as_numpy_dtype)


@op("unravel_index", static=("dims",))
def _unravel_index(indices, dims):
    return jnp.stack([c.astype(indices.dtype) for c in jnp.unravel_index(indices, dims)], axis=0)


def unravel_index(indices, dims, name=None):
    """The coordinates in an array of shape ``dims`` of each flat (row-major) index: shape
    ``[len(dims)] + indices.shape``, the dtype of ``indices`` (int32 or int64).

    Example:
        >>> import companion as tf
        >>> tf.unravel_index([22, 41, 37], [7, 6]).numpy().tolist()
        [[3, 6, 6], [4, 5, 1]]
    """
    indices = as_input(indices)
    if indices.dtype.name not in ("int32", "int64"):
        raise TypeError(f"unravel_index needs int32 or int64 indices. Received dtype {indices.dtype.name}.")
    shape = static_ints(dims, "unravel_index: dims")
    size = int(np.prod(shape))
    if not indices.is_traced:
        values = np.asarray(indices.numpy())
        if values.size and (values.min() < 0 or values.max() >= size):
            bad = int(values[(values < 0) | (values >= size)].ravel()[0])
            raise RuntimeCheckError(f"unravel_index: index {bad} is out of bounds for an array of shape "
                                    f"{list(shape)} (flat size {size}).")
    return _unravel_index(indices, dims=shape)

"""Shape and layout ops: reshape, transpose, concat/stack/split, tile, pad, shape (+ selection ops)."""

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, infer_dtype, is_tensor, mismatch_class
from companion._core._dispatch import dispatch
from companion._core._errors import InvalidArgumentError
from companion._core._node_messages import dt_name, node_message, node_name, shape_text
from companion._core._op import op
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._ops._select import boolean_mask, gather, gather_nd, one_hot, slice, strided_slice, where
from companion._ops._static import normalize_axes, normalize_axis, static_array, static_ints

__all__ = [
    "boolean_mask", "broadcast_dynamic_shape", "broadcast_static_shape", "broadcast_to", "concat",
    "expand_dims", "gather", "gather_nd", "one_hot",
    "pad", "rank", "reshape", "reverse", "shape", "size", "slice", "split", "squeeze", "stack",
    "strided_slice", "tile", "transpose", "unstack", "where",
]


# -- reshaping ----------------------------------------------------------------------------

@op("reshape", static=("shape",))
def _reshape(x, shape):
    return jnp.reshape(x, shape)


def reshape(tensor, shape, name=None):
    """Gives ``tensor`` a new shape with the same number of elements; one dimension may be -1.

    Example:
        >>> import companion as tf
        >>> print(tf.reshape(tf.range(6), [3, -1]).shape)
        (3, 2)
    """
    tensor = as_input(tensor)
    dims = static_ints(shape, "reshape: shape")
    return _reshape(tensor, shape=_resolve_shape(tensor._v.shape, dims, shape, tensor))


def _resolve_shape(old, dims, received, tensor=None):
    values = math.prod(old)
    unknown = dims.count(-1)
    known = math.prod(d for d in dims if d != -1)
    if unknown == 0 and known == values and min(dims, default=0) >= 0:
        return dims
    traced = None
    if unknown > 1 or min(dims, default=0) < -1:
        problem = "reshape: only one dimension may be -1 and none may be smaller."
    elif unknown == 0:
        problem = f"Input to reshape is a tensor with {values} values, but the requested shape has {known}."
        traced = (f"Cannot reshape a tensor with {values} elements to shape {shape_text(dims)} "
                  f"({known} elements)")
    elif known == 0 or values % known:
        problem = (f"Input to reshape is a tensor with {values} values, but the requested shape "
                   f"requires a multiple of {known}.")
        traced = f"Dimension size must be evenly divisible by {known} but is {values}" if known else None
    else:
        return tuple(values // known if d == -1 else d for d in dims)
    if traced is not None and tensor is not None:
        shape_input = (received, "shape") if is_tensor(received) else (None, "shape", [len(dims)])
        traced = node_message(traced, "reshape", [(tensor, "tensor"), shape_input],
                              f"T={dt_name(tensor.dtype)}, Tshape=DT_INT32",
                              suffix=" and with input tensors computed as partial shapes: "
                                     f"input[1] = {shape_text(dims)}")
    raise InvalidArgumentError(traced or (
        f"{problem} Give a shape whose dimensions multiply to {values} (the tensor has shape "
        f"{tuple(old)}), or -1 for one dimension to infer it. Received: shape={received!r}"))


@op("squeeze", static=("axis",))
def _squeeze(x, axis):
    return jnp.squeeze(x, axis)


def squeeze(input, axis=None, name=None):  # noqa: A002 - TensorFlow's argument name
    """Removes dimensions of size 1 (all of them, or those listed in ``axis``)."""
    input = as_input(input)
    shape = input._v.shape
    axes = normalize_axes(axis, len(shape), "squeeze")
    if axes is None:
        axes = tuple(i for i, d in enumerate(shape) if d == 1)
    for a in axes:
        if shape[a] != 1:
            raise InvalidArgumentError(
                f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}. Only size-1 "
                f"dimensions can be removed from a tensor of shape {shape}. Received: axis={axis!r}")
    return _squeeze(input, axis=axes)


@op("expand_dims", static=("axis",))
def _expand_dims(x, axis):
    return jnp.expand_dims(x, axis)


def expand_dims(input, axis, name=None):  # noqa: A002
    """Inserts a dimension of size 1 at ``axis`` (``-1`` appends one at the end)."""
    ragged = dispatch("expand_dims", [input], input, axis)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    input = as_input(input)
    return _expand_dims(input, axis=normalize_axis(axis, input._v.ndim, "expand_dims", extra=1))


@op("transpose", static=("perm", "conjugate"))
def _transpose(x, perm, conjugate):
    y = jnp.transpose(x, perm)
    return jnp.conj(y) if conjugate else y


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permutes the dimensions of ``a`` (reverses them when ``perm`` is None).

    Example:
        >>> import companion as tf
        >>> print(tf.transpose(tf.zeros((2, 3, 4)), perm=[2, 0, 1]).shape)
        (4, 2, 3)
    """
    a = as_input(a)
    rank = a._v.ndim
    if perm is None:
        perm = tuple(range(rank - 1, -1, -1))
    else:
        received = perm
        perm = tuple(d + rank if d < 0 else d for d in static_ints(perm, "transpose: perm"))
        if sorted(perm) != list(range(rank)):
            raise InvalidArgumentError(
                f"transpose: perm must be a permutation of {list(range(rank))} (one entry per "
                f"dimension of the rank-{rank} tensor). Received: perm={received!r}")
    return _transpose(a, perm=perm, conjugate=bool(conjugate))


@op("broadcast_to", static=("shape",))
def _broadcast_to(x, shape):
    return jnp.broadcast_to(x, shape)


def broadcast_to(input, shape, name=None):  # noqa: A002
    """Repeats ``input`` along size-1 (or missing leading) dimensions to get ``shape``."""
    input = as_input(input)
    dims = static_ints(shape, "broadcast_to: shape")
    old = input._v.shape
    fits = len(old) <= len(dims) and all(o in (1, d) for o, d in zip(old[::-1], dims[::-1]))
    if not fits:
        raise InvalidArgumentError(
            f"Unable to broadcast tensor of shape {old} to tensor of shape {dims}: each dimension "
            "must equal the target's or be 1. Reshape the tensor first. "
            f"Received: shape={shape!r}")
    return _broadcast_to(input, shape=dims)


def broadcast_static_shape(shape_x, shape_y):
    """The `TensorShape` that broadcasting shapes ``shape_x`` and ``shape_y`` gives.

    Dimensions are matched from the right; a 1 takes the other's size, and an unknown
    (``None``) dimension beside a known size other than 1 takes that size.

    Raises:
        ValueError: two known dimensions differ and neither is 1.

    Example:
        >>> import companion as tf
        >>> print(tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([1, 3])))
        (2, 3)
    """

    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.rank is None or y.rank is None:
        return TensorShape(None)
    dims = _broadcast_dims(x.as_list(), y.as_list())
    if dims is None:
        raise ValueError(f"Incompatible shapes for broadcasting: {x} and {y}. Compared from the right, each "
                         "pair of dimensions must be equal or one of them 1.")
    return TensorShape(dims)


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shapes given as 1-D integer tensors, as a 1-D tensor of their dtype.

    Example:
        >>> import companion as tf
        >>> print(tf.broadcast_dynamic_shape(tf.constant([2, 1]), tf.constant([1, 3])))
        companion.Tensor([2 3], shape=(2,), dtype=int32)
    """
    x, y = as_input(shape_x), as_input(shape_y)
    if x.is_traced or y.is_traced:
        raise TypeError("broadcast_dynamic_shape: the shapes must be known when the function is traced "
                        "(companion's shapes are static). Use broadcast_static_shape on x.shape instead.")
    a, b = np.asarray(x).tolist(), np.asarray(y).tolist()
    dims = _broadcast_dims(a, b)
    if dims is None:
        raise InvalidArgumentError(f"Incompatible shapes: {a} vs. {b}."
                                   " Compared from the right, each pair of dimensions must be equal or one "
                                   "of them 1.")
    return Tensor(jnp.asarray(dims, x._v.dtype))


def _broadcast_dims(a, b):
    """Broadcast of two dimension lists (None for unknown); None when they cannot broadcast."""
    size = max(len(a), len(b))
    a, b = [1] * (size - len(a)) + list(a), [1] * (size - len(b)) + list(b)
    out = []
    for p, q in zip(a, b):
        if p == 1 or p == q:
            out.append(q)
        elif q == 1:
            out.append(p)
        elif p is None or q is None:
            out.append(q if p is None else p)
        else:
            return None
    return out


# -- joining and splitting ----------------------------------------------------------------

@op("concat", static=("axis",))
def _concat(*xs, axis):
    return jnp.concatenate(xs, axis=axis)


def concat(values, axis, name="concat"):
    """Joins a list of tensors along an existing ``axis``; their other dimensions must match.

    Example:
        >>> import companion as tf
        >>> print(tf.concat([tf.zeros((2, 3)), tf.ones((2, 1))], axis=1).shape)
        (2, 4)
    """
    ragged = dispatch("concat", [values], values, axis)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    tensors = one_dtype(values, "concat")
    rank = tensors[0]._v.ndim
    if rank == 0:
        raise InvalidArgumentError("concat: can't concatenate scalars (use companion.stack instead).")
    given_axis, axis = axis, normalize_axis(axis, rank, "concat")
    shapes = [t._v.shape for t in tensors]
    for i, s in enumerate(shapes):
        if len(s) != rank or any(a != b for k, (a, b) in enumerate(zip(s, shapes[0])) if k != axis):
            raise InvalidArgumentError(_traced_concat_message(tensors, i, axis, given_axis) or (
                f"concat: all values must have the same shape except along axis {axis}, but "
                f"values[0] has shape {shapes[0]} and values[{i}] has shape {s}. Reshape them."))
    return _concat(*tensors, axis=axis)


def _traced_concat_message(tensors, bad, axis, given_axis):
    """TF's shape-inference message for ``concat``'s input ``bad`` while a function traces."""
    first, other = tensors[0]._v.shape, tensors[bad]._v.shape
    suffix = ""
    if len(first) != len(other):
        core = f"Shape must be rank {len(first)} but is rank {len(other)}"
    else:
        rest = [d for k, d in enumerate(first) if k != axis], [d for k, d in enumerate(other) if k != axis]
        k = next(k for k, (a, b) in enumerate(zip(*rest)) if a != b)
        core = (f"Dimension {k} in both shapes must be equal, but are {rest[0][k]} and {rest[1][k]}. "
                f"Shapes are {shape_text(rest[0])} and {shape_text(rest[1])}.")
        suffix = f" and with computed input tensors: input[{len(tensors)}] = <{int(given_axis)}>"
    inputs = [(t, f"values_{i}") for i, t in enumerate(tensors)] + [(None, "axis", [])]
    return node_message(core, "concat", inputs,
                        f"N={len(tensors)}, T={dt_name(tensors[0].dtype)}, Tidx=DT_INT32", suffix=suffix)


@op("stack", static=("axis",))
def _stack(*xs, axis):
    return jnp.stack(xs, axis=axis)


def stack(values, axis=0, name="stack"):
    """Stacks a list of same-shaped tensors along a new ``axis``."""
    ragged = dispatch("stack", [values], values, axis)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    tensors = one_dtype(values, "stack")
    shapes = [t._v.shape for t in tensors]
    for i, s in enumerate(shapes):
        if s != shapes[0]:
            raise InvalidArgumentError(_traced_stack_message(tensors, i, axis) or (
                f"stack: shapes of all inputs must match: values[0].shape = {shapes[0]} != "
                f"values[{i}].shape = {s}. Reshape or pad them to one shape."))
    return _stack(*tensors, axis=normalize_axis(axis, len(shapes[0]), "stack", extra=1))


def _traced_stack_message(tensors, bad, axis):
    """TF's shape-inference message for ``stack``'s input ``bad`` while a function traces. (With
    axis 0, TF first tries to pack the list as one constant, which takes the name ``stack``.)"""
    first, other = tensors[0]._v.shape, tensors[bad]._v.shape
    if len(first) != len(other):
        core = f"Shapes must be equal rank, but are {len(first)} and {len(other)}"
    else:
        k = next(k for k, (a, b) in enumerate(zip(first, other)) if a != b)
        core = (f"Dimension {k} in both shapes must be equal, but are {first[k]} and {other[k]}. "
                f"Shapes are {shape_text(first)} and {shape_text(other)}.")
    core += f"\n\tFrom merging shape {bad - 1} with other shapes."
    node = node_name("stack", skip=1 if axis == 0 else 0)
    return node_message(core, "stack", [(t, f"values_{i}") for i, t in enumerate(tensors)],
                        f"N={len(tensors)}, T={dt_name(tensors[0].dtype)}, axis={int(axis)}", node=node)


def one_dtype(values, what):
    """``values`` as a list of tensors of one dtype (Python values adopt the first tensor's dtype)."""
    if is_tensor(values) or not isinstance(values, (list, tuple)) or not values:
        raise TypeError(f"{what} takes a non-empty list of tensors. Received: {values!r}")
    values = [as_input(v) if is_tensor(v) else v for v in values]  # a mixed layer's weights: autocast
    dtype = next((v.dtype for v in values if is_tensor(v)), None)
    if dtype is None and all(isinstance(v, (bool, int, float, complex)) for v in values):
        dtype = infer_dtype(values)  # Python numbers alone: as TF converts the list, [1, 2.5] is float32
    tensors = [as_input(v, dtype) if not is_tensor(v) else v for v in values]
    dtype = tensors[0].dtype
    for i, t in enumerate(tensors):
        if t.dtype != dtype:  # TF: InvalidArgumentError eagerly, TypeError while tracing
            raise mismatch_class()(
                f"{what}: all values must have one dtype, but values[0] is {dtype.name} and "
                f"values[{i}] is {t.dtype.name}. Cast them to one dtype first, e.g. "
                f"companion.cast(values[{i}], companion.{dtype.name}).")
    return tensors


@op("unstack", static=("axis",))
def _unstack(x, axis):
    return tuple(jax.lax.index_in_dim(x, i, axis, keepdims=False) for i in range(x.shape[axis]))


def unstack(value, num=None, axis=0, name="unstack"):
    """Splits ``value`` along ``axis`` into a list of tensors of one rank less."""
    value = as_input(value)
    shape = value._v.shape
    axis = normalize_axis(axis, len(shape), "unstack")
    if num is not None and int(num) != shape[axis]:
        raise InvalidArgumentError(f"unstack: num={num} but the tensor of shape {shape} has "
                                   f"{shape[axis]} entries along axis {axis}. Omit num, or pass "
                                   f"num={shape[axis]}.")
    return list(_unstack(value, axis=axis))


@op("split", static=("sizes", "axis"))
def _split(x, sizes, axis):
    return tuple(jnp.split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis))


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits ``value`` along ``axis`` into equal parts, or parts of the given sizes (one may be -1).

    Example:
        >>> import companion as tf
        >>> [t.shape[1] for t in tf.split(tf.zeros((2, 7)), [2, -1, 1], axis=1)]
        [2, 4, 1]
    """
    value = as_input(value)
    shape = value._v.shape
    axis = normalize_axis(axis, len(shape), "split")
    array = static_array(num_or_size_splits, "split: num_or_size_splits")
    if array.ndim == 0:
        sizes = _even_sizes(int(array), shape[axis], axis)
    else:
        sizes = _resolve_sizes(tuple(int(s) for s in array), shape[axis], num_or_size_splits)
    return list(_split(value, sizes=sizes, axis=axis))


def _even_sizes(parts, dim, axis):
    if parts <= 0 or dim % parts:
        raise InvalidArgumentError(
            f"Number of ways to split should evenly divide the split dimension, but got split_dim "
            f"{axis} (size = {dim}) and num_split {parts}. Pass a list of sizes for uneven parts.")
    return (dim // parts,) * parts


def _resolve_sizes(sizes, dim, received):
    unknown = [i for i, s in enumerate(sizes) if s == -1]
    known = sum(s for s in sizes if s != -1)
    ok = len(unknown) <= 1 and all(s >= -1 for s in sizes)
    ok = ok and (known == dim if not unknown else known <= dim)
    if not ok:
        raise InvalidArgumentError(
            f"split: the sizes must add up to the dimension being split ({dim}), with at most one "
            f"-1 standing for the rest. Received: num_or_size_splits={received!r}")
    return tuple(dim - known if s == -1 else s for s in sizes)


@op("tile", static=("multiples",))
def _tile(x, multiples):
    return jnp.tile(x, multiples)


def tile(input, multiples, name=None):  # noqa: A002
    """Repeats ``input`` ``multiples[i]`` times along each dimension ``i``."""
    ragged = dispatch("tile", [input], input, multiples)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    input = as_input(input)
    reps = static_ints(multiples, "tile: multiples")
    if len(reps) != input._v.ndim or min(reps, default=0) < 0:
        raise InvalidArgumentError(
            f"tile: expected multiples to be {input._v.ndim} non-negative ints (one per "
            f"dimension of the tensor of shape {input._v.shape}). Received: multiples={multiples!r}")
    return _tile(input, multiples=reps)


@op("reverse", static=("axis",))
def _reverse(x, axis):
    return jnp.flip(x, axis)


def reverse(tensor, axis, name=None):
    """Reverses the order of elements along each axis listed in ``axis``."""
    ragged = dispatch("reverse", [tensor], tensor, axis)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    tensor = as_input(tensor)
    return _reverse(tensor, axis=normalize_axes(axis, tensor._v.ndim, "reverse"))


# -- padding ----------------------------------------------------------------------------------

@op("pad", static=("paddings",))
def _pad_constant(x, value, paddings):
    return jnp.pad(x, paddings, constant_values=value)


@op("mirror_pad", static=("paddings", "mode"))
def _pad_mirror(x, paddings, mode):
    return jnp.pad(x, paddings, mode=mode)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pads ``tensor``; ``paddings[i] = [before, after]`` for each dimension ``i``.

    ``mode`` is ``"CONSTANT"`` (fill with ``constant_values``), ``"REFLECT"`` (mirror
    without the edge) or ``"SYMMETRIC"`` (mirror with the edge), in any letter case.

    Example:
        >>> import companion as tf
        >>> print(tf.pad(tf.constant([1, 2, 3]), [[1, 2]], "REFLECT"))
        companion.Tensor([2 1 2 3 2 1], shape=(6,), dtype=int32)
    """
    tensor = as_input(tensor)
    shape = tensor._v.shape
    pads = _paddings(paddings, shape)
    kind = str(mode).upper()
    if kind == "CONSTANT":
        return _pad_constant(tensor, as_input(constant_values, tensor.dtype), paddings=pads)
    if kind not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"pad: mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC'. Received: mode={mode!r}")
    limit = 0 if kind == "REFLECT" else 1
    for dim, (before, after) in zip(shape, pads):
        if max(before, after) > dim - 1 + limit:
            raise InvalidArgumentError(
                f"pad: in {kind} mode each padding must be {'less than' if limit == 0 else 'at most'} "
                f"the size of its dimension, but {before, after} does not fit a dimension of size "
                f"{dim}. Use smaller paddings or mode='CONSTANT'. Received: paddings={paddings!r}")
    return _pad_mirror(tensor, paddings=pads, mode=kind.lower())


def _paddings(paddings, shape):
    array = static_array(paddings, "pad: paddings")
    if array.shape != (len(shape), 2) or (array.size and array.min() < 0):
        raise InvalidArgumentError(
            f"pad: paddings must be {len(shape)} pairs [before, after] of non-negative ints (one per "
            f"dimension of the tensor of shape {shape}), i.e. shape ({len(shape)}, 2). "
            f"Received: paddings={paddings!r}")
    return tuple((int(b), int(a)) for b, a in array)


# -- shape queries ------------------------------------------------------------------------

def shape(input, out_type=_dtypes.int32, name=None):  # noqa: A002
    """The shape of ``input`` as a 1-D integer tensor (int32 unless ``out_type`` says otherwise).

    Example:
        >>> import companion as tf
        >>> print(tf.shape(tf.zeros((2, 3))))
        companion.Tensor([2 3], shape=(2,), dtype=int32)
    """
    return _int_tensor(tuple(as_input(input)._v.shape), _index_dtype(out_type, "shape"))


def size(input, out_type=_dtypes.int32, name=None):  # noqa: A002
    """The number of elements of ``input`` as a scalar integer tensor."""
    ragged = dispatch("size", [input], input, out_type)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    count = int(np.prod(as_input(input)._v.shape, dtype=np.int64))
    return _int_tensor(count, _index_dtype(out_type, "size"))


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of ``input`` as a scalar int32 tensor."""
    ragged = dispatch("rank", [input], input)
    if ragged is not NotImplemented:  # TF dispatches RaggedTensor arguments to tf.ragged's op
        return ragged
    return _int_tensor(as_input(input)._v.ndim, "int32")


def _index_dtype(out_type, what):
    dtype = _dtypes.as_dtype(out_type)
    if dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"{what}: out_type must be companion.int32 or companion.int64. "
                        f"Received: out_type={out_type!r}")
    return dtype.name


@functools.lru_cache(maxsize=1024)
def _int_tensor(value, dtype_name):
    with jax.ensure_compile_time_eval():  # a concrete constant, even while a function is traced
        return Tensor(jnp.asarray(value, dtype=dtype_name))

"""Turning Python and NumPy values into Tensors with TensorFlow's dtype rules.

- Python ``int`` → int32 (int64 when it does not fit), ``float`` → float32,
  ``complex`` → complex128, ``bool`` → bool, ``str``/``bytes`` → string.
- NumPy arrays and scalars keep their dtype (``np.arange`` → int64).
- Nested lists infer from their elements; an explicit ``dtype=`` wins.
- In a binary op, a Python value adopts the tensor's dtype; two tensors of different
  dtypes are an error (`InvalidArgumentError`), never a silent promotion.
"""

import numbers

import jax
import numpy as np

from companion._core import _dtypes, _tensor_names
from companion._core._context import state
from companion._core._errors import (
    ConversionError,
    InvalidArgumentError,
    InvalidArgumentTypeError,
    TracedDtypeMismatchError,
)
from companion._core._indexed_slices import IndexedSlices
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor

_INT32 = np.iinfo(np.int32)
_INT64 = np.iinfo(np.int64)
_UINT64 = np.iinfo(np.uint64)
_SCALAR_CACHE = {}
_SCALAR_CACHE_LIMIT = 4096
_KIND_ORDER = [_dtypes.bool, _dtypes.int32, _dtypes.int64, _dtypes.uint64, _dtypes.float32,
               _dtypes.complex128]


def is_tensor(value):
    """True for Tensors and Variables (the values companion ops accept as tensors)."""
    return isinstance(value, Tensor) or getattr(value, "_is_variable", False)


def is_tensor_like(value):
    """``tf.is_tensor``: True for Tensors, Variables and the composite tensors (`IndexedSlices`,
    `RaggedTensor`, `SparseTensor`); False for NumPy arrays and Python values.

    Example:
        >>> import companion as tf
        >>> tf.is_tensor(tf.constant(1.0)), tf.is_tensor(tf.ragged.constant([[1], []])), tf.is_tensor(1.0)
        (True, True, False)
    """
    return is_tensor(value) or getattr(type(value), "_composite_tensor", False)


def constant(value, dtype=None, shape=None, name=None):
    """Creates a constant Tensor from a Python value, a NumPy array or a Tensor.

    Args:
        value: a scalar, a (nested) list, a NumPy array or a Tensor.
        dtype: the element type; inferred with TensorFlow's rules when omitted.
        shape: if given, the value is reshaped to it, or broadcast to it when the value
            has a single element.
        name: accepted for TensorFlow compatibility; unused.

    Example:
        >>> import companion as tf
        >>> print(tf.constant(0, shape=(2, 2)))
        companion.Tensor(
        [[0 0]
         [0 0]], shape=(2, 2), dtype=int32)
    """
    if state.staging and isinstance(value, (list, tuple)) and any(
            isinstance(v, Tensor) and isinstance(v._v, jax.core.Tracer) for v in _leaves(value)):
        raise TypeError("Expected any non-tensor type, but got a tensor instead. constant takes Python "
                        "values and arrays; inside a function, a list holding tensors is packed by "
                        "companion.convert_to_tensor(values) or companion.stack(values).")
    if isinstance(value, (list, tuple)):
        _refuse_held_tensors(value)
    return _tensor_names.named(_constant(value, dtype, shape), "Const")


def _refuse_held_tensors(value):
    """TF 2.21's `constant` converts Python values only: a list holding a tensor or a Variable is
    a ValueError (`convert_to_tensor` and `stack` pack one)."""
    leaves = _leaves(value)
    if not any(isinstance(v, Tensor) or getattr(v, "_is_variable", False) for v in leaves):
        return
    first = leaves[0]
    if getattr(first, "_is_variable", False):
        reason = "TypeError: object of type 'ResourceVariable' has no len()"
    elif isinstance(first, Tensor):
        reason = "TypeError: Scalar tensor has no `len()`"
    else:
        reason = "Can't convert Python sequence with mixed types to Tensor."
    raise ValueError(f"{reason}\ncompanion.constant takes Python values and arrays; pack tensors with "
                     "companion.stack(values) or companion.convert_to_tensor(values).")


def _constant(value, dtype=None, shape=None):
    """`constant` without a graph name: a conversion inside an op's arguments (TF names those
    after the op, ``mul/y``, not ``Const``)."""
    array = to_numpy(value, dtype)
    if shape is not None:
        array = _fit_shape(array, shape, value)
    return from_numpy(array)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Converts ``value`` to a Tensor; Tensors pass through (their dtype must match ``dtype``).

    ``dtype_hint`` is used for Python values when ``dtype`` is not given and the value
    can be represented in it.
    """
    if isinstance(value, Tensor):
        return _check_dtype(value, dtype)
    if getattr(value, "_is_variable", False):
        return _check_dtype(autocast(value).value() if state.autocast else value.value(), dtype)
    if isinstance(value, IndexedSlices):
        return value._dense(dtype)
    if _holds_staged_tensors(value):
        return _packed(value, dtype)
    if dtype is None and dtype_hint is not None:
        try:
            return _constant(value, dtype=dtype_hint)
        except (TypeError, ValueError):
            pass
    return _constant(value, dtype=dtype)


def as_input(value, dtype=None):
    """Like `convert_to_tensor` but keeps Variables (ops read them, tapes see the read).

    Python scalars converted here are cached, so ``x * 0.5`` in a loop costs no transfer.
    """
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        if state.autocast is not None and value._is_variable:
            value = autocast(value)
        return value if dtype is None else _check_dtype(value, dtype)
    if dtype is not None and isinstance(value, (bool, int, float, complex)):
        return _cached_scalar(value, _dtypes.as_dtype(dtype))
    if isinstance(value, IndexedSlices):
        return value._dense(dtype)
    if _holds_staged_tensors(value):
        return _packed(value, dtype)
    return _constant(value, dtype=dtype)


def _holds_staged_tensors(value):
    """True for a (nested) list or tuple holding tensors or Variables while a function traces or a
    tape records (packed by an op the tape sees: ``tf.reduce_sum([x, 2 * x])`` has a gradient)."""
    if not (state.staging or state.tapes) or not isinstance(value, (list, tuple)):
        return False
    return any(is_tensor(v) for v in _leaves(value))


def _packed(value, dtype):
    """A list of tensors and Python values as one tensor, as TF's graphs pack one (op ``packed``):
    stacked, the Python values converted to the first tensor's dtype (or ``dtype``)."""
    # deferred: stack is an op, and ops are built on this module
    from companion._ops._array import stack

    if dtype is None:
        dtype = next(v.dtype for v in _leaves(value) if is_tensor(v))

    def pack(part):
        if isinstance(part, (list, tuple)):
            return stack([pack(v) for v in part])
        return as_input(part, dtype)

    packed = pack(value)
    _tensor_names.rename(packed._v, "packed")
    return packed


def autocast(value):
    """``value`` read in the compute dtype of the mixed-precision layer now calling, when it is a
    float Keras weight that autocasts (Keras 3's ``AutocastScope``); anything else as it is.

    The cast is an op on the Variable's read, so a tape differentiates it: the weight's gradient
    comes back in the weight's own dtype.
    """
    dtype = state.autocast
    if (dtype is None or not getattr(value, "_keras_autocast", False) or value.dtype == dtype
            or not value.dtype.is_floating):
        return value
    # deferred: companion._ops builds on this module (an upward import is a cycle)
    from companion._ops._math import _cast

    return _cast(value.value(), dtype=dtype._np)


def binary_inputs(x, y, op_name):
    """Converts the operands of a binary op to one dtype, following TensorFlow.

    Raises:
        InvalidArgumentError: both operands are tensors of different dtypes, or a Python value
            cannot be represented in the tensor's dtype (also a ``TypeError``, as TF raises
            that while tracing).
    """
    x_is = isinstance(x, Tensor) or getattr(x, "_is_variable", False)
    y_is = isinstance(y, Tensor) or getattr(y, "_is_variable", False)
    if state.autocast is not None:
        x, y = (autocast(x) if x_is else x), (autocast(y) if y_is else y)
    if x_is and y_is:
        if x._v.dtype != y._v.dtype:
            raise _mismatch(op_name, x, y)
        return x, y
    try:
        if x_is:
            return x, as_input(y, x.dtype)
        if y_is:
            return as_input(x, y.dtype), y
        x = as_input(x)
        return x, as_input(y, x.dtype)
    except TypeError as error:  # a Python value the tensor's dtype cannot hold
        if isinstance(error, InvalidArgumentError):
            raise
        # TF: TypeError ("Cannot convert 1.5 to EagerTensor of dtype int32"), but `tensor + value`
        # converts the value on its own and fails in the kernel (InvalidArgumentError) when eager
        eager_add = op_name == "add" and x_is and not state.staging
        raise (InvalidArgumentTypeError if eager_add else TracedDtypeMismatchError)(
            f"{op_name}: {error}") from None


def infer_dtype(value):
    """The dtype TensorFlow would give ``value`` when converting it without ``dtype=``."""
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        return value.dtype
    if isinstance(value, (np.ndarray, np.generic, jax.Array)):
        return _dtypes.as_dtype(_string_or(value.dtype))
    if isinstance(value, (list, tuple)):
        return _infer_sequence(value)
    return _python_scalar_dtype(value)


def to_numpy(value, dtype=None):
    """``value`` as a NumPy array of ``dtype`` (inferred when None), checking the conversion."""
    try:
        return _to_numpy(value, dtype)
    except ValueError as error:
        if "inhomogeneous" not in str(error) or not isinstance(value, (list, tuple)):
            raise
        # NumPy's text names its own array; TF's first line, then how to hold rows of other lengths
        raise ConversionError(
            "Can't convert non-rectangular Python sequence to Tensor.\nThe nested lists have rows of "
            f"different lengths: {_short_repr(value)}. Use companion.ragged.constant for a RaggedTensor, "
            "or pad the rows to one length.") from None


def _short_repr(value) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _to_numpy(value, dtype):
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        source, array = value.dtype, np.asarray(value)
    else:
        tensors = [] if isinstance(value, (list, tuple)) else None
        value = _unwrap_nested(value, tensors)
        if tensors and dtype is None:
            dtype = _packed_dtype(tensors)
        source = infer_dtype(value)
        array = None if _is_python(value) else np.asarray(value)
    target = source if dtype is None else _dtypes.as_dtype(dtype)
    wrap = target != source and not _is_empty(value) and _check_convertible(value, source, target)
    if array is None:
        return _wrapped(value, target) if wrap else np.asarray(value, dtype=target._np)
    return array if target == source and array.dtype == target._np else _cast_numpy(array, target)


def _is_empty(value):
    return isinstance(value, (list, tuple)) and not _leaves(value)


def _is_python(value):
    if isinstance(value, (list, tuple)):
        return all(_is_python(v) for v in value)
    return isinstance(value, (bool, int, float, complex, str, bytes))


def from_numpy(array):
    """Wraps a NumPy array as a Tensor on the default device (strings stay NumPy)."""
    if array.dtype == object:
        return Tensor(np.vectorize(_to_bytes, otypes=[object])(array) if array.size else array)
    if state.staging:  # a constant stays a known value while a function is traced
        with jax.ensure_compile_time_eval():
            return Tensor(to_device(array))
    return Tensor(to_device(array))


def to_device(array):
    """A NumPy array copied into a ``jax.Array``: a plain transfer, never an XLA compile.

    (``jnp.asarray`` compiles a small copy program for every new shape and dtype.) The copy is
    made here, on the host, so that with asynchronous dispatch a later write to ``array`` cannot
    reach the tensor before the transfer happens; JAX may then keep that private copy as is.
    """
    return jax.device_put(np.array(array, copy=True))


# -- private helpers ---------------------------------------------------------------------

def _cached_scalar(value, dtype):
    key = (type(value), value, dtype.name)
    tensor = _SCALAR_CACHE.get(key)
    if tensor is None:
        if len(_SCALAR_CACHE) >= _SCALAR_CACHE_LIMIT:
            _SCALAR_CACHE.clear()
        tensor = _constant(value, dtype=dtype)
        if isinstance(tensor._value, jax.core.Tracer):
            return tensor  # made under a JAX trace (e.g. a custom gradient's replay): never cached
        _SCALAR_CACHE[key] = tensor
    return tensor


def _check_dtype(tensor, dtype):
    if dtype is not None and tensor.dtype != _dtypes.as_dtype(dtype):
        raise InvalidArgumentError(
            f"Expected a tensor of dtype {_dtypes.as_dtype(dtype).name}, but received one of "
            f"dtype {tensor.dtype.name}: {tensor!s}. Convert it with companion.cast(x, "
            f"{_dtypes.as_dtype(dtype).name}) first.")
    return tensor


def _mismatch(op_name, x, y):
    narrow, wide = (x, y) if _rank(x.dtype) <= _rank(y.dtype) else (y, x)
    return mismatch_class()(
        f"cannot compute {op_name} between tensors of dtypes {x.dtype.name} and {y.dtype.name}: "
        "companion (like TensorFlow) never converts between dtypes silently. Convert one operand "
        f"first, e.g. companion.cast(<the {narrow.dtype.name} operand>, companion.{wide.dtype.name}).")


def mismatch_class():
    """TF raises InvalidArgumentError for mixed dtypes eagerly and TypeError while tracing."""
    return TracedDtypeMismatchError if state.staging else InvalidArgumentTypeError


def _rank(dtype):
    return (dtype.is_complex, dtype.is_floating, dtype.size)


def _python_scalar_dtype(value):
    if isinstance(value, (bool, np.bool_)):
        return _dtypes.bool
    if isinstance(value, numbers.Integral):
        if _INT32.min <= value <= _INT32.max:
            return _dtypes.int32
        if _INT64.min <= value <= _INT64.max:
            return _dtypes.int64
        if 0 <= value <= _UINT64.max:
            return _dtypes.uint64
        raise ValueError(f"{value} does not fit in any integer dtype (int64 or uint64). "
                         "Use a float, or split the number.")
    if isinstance(value, numbers.Real):
        return _dtypes.float32
    if isinstance(value, numbers.Complex):
        return _dtypes.complex128
    if isinstance(value, (str, bytes)):
        return _dtypes.string
    if value is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) "
                         "to a Tensor.\nNone is no value: pass a number, a list or an array.")
    if getattr(type(value), "_is_host_value", False):
        raise ConversionError(
            "This string tensor's text depends on values the compiled function computes, so companion "
            "builds it on the host after the program runs (XLA has no strings); only string ops "
            "(companion.strings.*), companion.print and returning it accept it inside the function. "
            "Return it and use it outside, or compute with the numbers it came from.")
    if type(value).__name__ == "SparseTensor":
        raise ConversionError("A SparseTensor is not converted to a dense tensor implicitly (as in TF): use "
                              "companion.sparse.to_dense(sp), or the companion.sparse ops (reduce_sum, "
                              f"sparse_dense_matmul, ...). Received: {value!r}")
    raise ConversionError(f"Attempt to convert a value ({_short_repr(value)}) with an unsupported type "
                          f"({type(value)!r}) to a Tensor.\nA value of type {type(value).__name__} cannot "
                          "be a tensor: pass a number, a string, a (nested) list, a NumPy array or a Tensor.")


def _infer_sequence(values):
    """Python scalars join by kind (bool < int < float < complex); typed leaves keep their dtype."""
    leaves = _leaves(values)
    if not leaves:
        return _dtypes.float32
    kinds = {infer_dtype(v) for v in leaves}
    if _dtypes.string in kinds:
        if len(kinds) > 1:
            raise ConversionError("Can't convert Python sequence with mixed types to Tensor.\nStrings and "
                                  f"numbers do not mix in one tensor. Received: {_short_repr(values)}")
        return _dtypes.string
    # as TF's sequence conversion: element by element, a higher kind (bool < int < float < complex)
    # takes over, and within a kind floats keep the first dtype met while ints widen; NumPy integer
    # and bool scalars count as Python ones (``list(np.arange(3))`` is int32)
    joined = None
    for v in leaves:
        python = isinstance(v, (bool, int, float, complex, np.integer, np.bool_)) and not isinstance(
            v, (np.floating, np.complexfloating))
        joined = _join_kinds(joined, _python_scalar_dtype(v) if python else infer_dtype(v))
    return joined


def _join_kinds(current, new):
    if current is None or current == new:
        return new
    rank = [_kind_rank(current), _kind_rank(new)]
    if rank[0] != rank[1]:
        return new if rank[1] > rank[0] else current
    if current.is_integer:
        return _dtypes.as_dtype(np.promote_types(current._np, new._np))
    return current


def _kind_rank(dtype):
    return 0 if dtype.is_bool else 1 if dtype.is_integer else 3 if dtype.is_complex else 2


def _leaves(values):
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(_leaves(v))
        else:
            out.append(v)
    return out


def _unwrap_nested(value, tensors=None):
    """``value`` with its tensors as NumPy arrays (and shapes and ranges as lists); the tensors met,
    with their positions in their own lists, are appended to ``tensors`` when given."""
    if isinstance(value, TensorShape):  # TF converts a fully known shape to its sizes
        if not value.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {value} to a Tensor. Convert "
                             "the known sizes only, or use companion.shape(x) for the sizes at run time.")
        sizes = value.as_list()
        return np.asarray(sizes, np.int64 if any(d >= 2**31 for d in sizes) else np.int32)
    if isinstance(value, (list, tuple, range)):  # TF converts a range as the list of its numbers
        if tensors is not None:
            for i, v in enumerate(value):
                if isinstance(v, Tensor) or getattr(v, "_is_variable", False):
                    tensors.append((i, v.dtype))
        return [_unwrap_nested(v, tensors) for v in value]
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        return value.numpy()
    return value


def _packed_dtype(tensors):
    """TF's dtype for a list holding tensors (its auto-packing): the first tensor's; Python numbers
    convert to it, a tensor of another dtype is the Pack kernel's error."""
    first = tensors[0][1]
    for i, dtype in tensors[1:]:
        if dtype != first:
            want, got = _dtypes.kernel_name(first), _dtypes.kernel_name(dtype)
            raise InvalidArgumentError(f"cannot compute Pack as input #{i}(zero-based) was expected to be a "
                                       f"{want} tensor but is a {got} tensor [Op:Pack] name: packed")
    return first


def _string_or(np_dtype):
    return "string" if np_dtype.kind in "OSU" else np_dtype


def _check_convertible(value, source, target):
    if isinstance(value, (np.ndarray, np.generic)) or is_tensor(value):
        if source.is_floating and target.is_integer or source == _dtypes.string != target:
            raise TypeError(f"Cannot convert an array of dtype {source.name} to {target.name}. "
                            "Use companion.cast to convert between kinds explicitly.")
        return
    narrower = (source.is_complex and not target.is_complex) or (
        source.is_floating and (target.is_integer or target.is_bool))
    if narrower or (source == _dtypes.string) != (target == _dtypes.string):
        raise TypeError(f"Cannot convert {value!r} to a tensor of dtype {target.name}: "
                        f"the value is {source.name}. Pass a value of that kind, or use "
                        "companion.cast on a tensor.")
    return target.is_integer and _out_of_range(value, target)


def _out_of_range(value, target):
    """True when some Python int does not fit ``target``; TF then wraps it around (two's
    complement, ``constant(-1, dtype=uint8)`` is 255) if it fits in int64 (uint64 for a uint64
    target), and refuses it (ValueError) otherwise."""
    info = np.iinfo(target._np)
    flat = np.asarray(value, dtype=object).ravel()
    bad = [int(v) for v in flat if not info.min <= int(v) <= info.max]
    limit = _UINT64.max if target == _dtypes.uint64 else _INT64.max
    beyond = [v for v in bad if not _INT64.min <= v <= limit]
    if beyond:
        raise ValueError(f"{beyond[0]} is out of range for {target.name}: TensorFlow converts a Python "
                         f"integer only when it fits in int64. Received: {value!r}. Use a float, or "
                         "split the number.")
    return bool(bad)


def _wrapped(value, target):
    """Python ints as ``target`` with TF's wrap-around: the low ``target.size * 8`` bits."""
    bits = np.iinfo(target._np).bits
    flat = np.asarray(value, dtype=object)
    low = np.vectorize(lambda v: int(v) & ((1 << bits) - 1), otypes=[np.uint64])(flat)
    return low.astype(target._np)


def _cast_numpy(array, target):
    if target == _dtypes.string:
        return array.astype(object)
    return array.astype(target._np)


def _fit_shape(array, shape, value):
    shape = tuple(int(d) for d in shape)
    if array.size == 1 and array.shape != shape:
        return np.broadcast_to(array.reshape(()), shape).copy()
    if array.size == int(np.prod(shape, dtype=np.int64)):
        return array.reshape(shape)
    raise TypeError(  # TF's class for this mistake, eagerly and while tracing
        f"constant: the value has {array.size} elements but shape={shape} needs "
        f"{int(np.prod(shape, dtype=np.int64))}. Received value: {value!r}. Give a value with "
        "that many elements, or a single element to fill the shape.")


def _to_bytes(item):
    return item.encode("utf-8") if isinstance(item, str) else item

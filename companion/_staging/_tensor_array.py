"""`TensorArray`: a list of tensors of one dtype, written one at a time, eagerly and in compiled loops.

How a list that grows fits JAX's static shapes (companion's design):

* **Eagerly** a TensorArray is a Python list of Tensors. As in TensorFlow, the object that
  `write` returns shares that list with the one it was called on, so an unassigned
  ``ta.write(i, x)`` still lands. Reading an element twice with ``clear_after_read``
  (the default) raises TF's `InvalidArgumentError`; an unwritten element reads as zeros.
* **Inside** `companion.function` every method returns a new TensorArray and leaves the old
  one unchanged (TF's graph TensorArray does the same: a write that is not assigned is
  lost). While every index is known while tracing it stays a list of traced tensors.
* **As a variable of a compiled loop** (AutoGraph's ``for i in tf.range(n)``/``while`` on a
  tensor, `while_loop`, `map_fn`, `scan`), or when written at an index known only at run
  time, it becomes a *buffer*: one array of shape ``(capacity,) + element_shape`` and an
  int32 length, both carried through the loop. The capacity is ``size`` for a fixed-size
  array. With ``dynamic_size=True`` it is the current length plus the loop's trip count,
  which must be known while tracing (``for`` over a tensor or over a range with known
  bounds, ``while_loop(..., maximum_iterations=N)``, or a loop body that starts with
  ``autograph.experimental.set_loop_options(maximum_iterations=N)``); otherwise companion raises a
  `ValueError` saying what to pass (TensorFlow grows the list at run time, which XLA's
  static shapes cannot). The element shape comes from ``element_shape``, from earlier
  writes, or from one extra trace of the loop body that finds the shape of what it writes.
* Differences inside a compiled loop: `stack` returns all ``capacity`` rows (unwritten rows
  are zeros) of a dynamic array, an index out of range at run time is not an error (a write
  is dropped, a read gives zeros), and ``clear_after_read`` is not enforced (as in TF's
  graphs).
"""

import contextlib
import io

import jax
import jax.numpy as jnp

from companion._core import _tensor_names
from companion._core._context import state
from companion._core._convert import convert_to_tensor
from companion._core._dtypes import as_dtype
from companion._core._errors import InvalidArgumentError, OutOfRangeError, RuntimeCheckError
from companion._core._op import op
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._ops._array import concat, reshape, split, stack, unstack
from companion._ops._creation import zeros
from companion._ops._select import gather
from companion._staging._needs_values import NeedsValues

__all__ = ["TensorArray"]

_CLEARED = object()  # an element read once with clear_after_read=True


class TensorArray:
    """A list of tensors of one ``dtype``, written with `write` and read back with `read`/`stack`.

    Args:
        dtype: the dtype of every element.
        size: the number of elements (an int, or an int32 tensor known when it is used).
        dynamic_size: if true, writing past the end grows the array.
        clear_after_read: if true (the default), reading an element eagerly frees it and a
            second read raises `InvalidArgumentError`.
        element_shape: the shape of every element, if known.
        infer_shape: if true (the default), every element must have the first one's shape.

    Example:
        >>> import companion as tf
        >>> ta = tf.TensorArray(tf.float32, size=3)
        >>> for i in range(3):
        ...     ta = ta.write(i, float(i * i))
        >>> print(ta.stack())
        companion.Tensor([0. 1. 4.], shape=(3,), dtype=float32)
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None,
                 colocate_with_first_write_call=True, name=None):
        self._dtype = as_dtype(dtype)
        self._dynamic = bool(dynamic_size)
        self._clear = True if clear_after_read is None else bool(clear_after_read)
        self._infer_shape = bool(infer_shape)
        self._declared = _shape_tuple(element_shape)
        n = _static_size(size, self._dynamic)
        self._store = _Store([None] * n, self._declared)
        self._buffer = self._length = None  # buffer mode: Tensor (capacity, *shape), int32 Tensor
        self._capacity_hint = None  # the capacity a compiled loop asked for, before any write

    # -- properties ---------------------------------------------------------------------------
    @property
    def dtype(self):
        """The dtype of the elements."""
        return self._dtype

    @property
    def dynamic_size(self):
        """Whether writing past the end grows the array."""
        return self._dynamic

    @property
    def element_shape(self):
        """The elements' shape (`TensorShape`; unknown before the first write)."""
        return TensorShape(self._store.shape)

    @property
    def handle(self):
        """None: companion has no resource handles (TF's eager TensorArray has none either)."""
        return None

    @property
    def flow(self):
        """A scalar int32 tensor TF uses to order writes; companion keeps program order."""
        return convert_to_tensor(0, dtype="int32")

    # -- writing ----------------------------------------------------------------------------
    def write(self, index, value, name=None):
        """Writes ``value`` at ``index``; returns the TensorArray to use from now on."""
        value = self._element(value)
        i = _static_index(index)
        if self._buffer is None and i is not None:
            return self._write_listed(i, value)
        ta = self._as_buffer(tuple(value._v.shape), "write at an index known only when the function runs")
        ta._check_shape(tuple(value._v.shape))
        new = ta._derive(buffer=_buffer_write(ta._buffer, _index_tensor(index), value))
        new._length = ta._length if not ta._dynamic else Tensor(
            jnp.maximum(ta._length._value, _index_tensor(index)._value + 1))
        return new

    def unstack(self, value, name=None):
        """Writes ``value[0]``, ``value[1]``, … at indices 0, 1, …"""
        value = self._element(value)
        if value._v.ndim == 0:
            raise ValueError(f"TensorArray.unstack needs a tensor of rank >= 1. Received: {value}")
        count = value._v.shape[0]
        if not self._dynamic and self._buffer is None and count > len(self._store.items):
            raise ValueError(f"Cannot unstack {count} tensors into a TensorArray of static size "
                             f"{len(self._store.items)}. Pass size={count} or dynamic_size=True.")
        return self.scatter(list(range(count)), value)

    def scatter(self, indices, value, name=None):
        """Writes ``value[k]`` at ``indices[k]`` for every k."""
        value = self._element(value)
        static = [_static_index(i) for i in _index_list(indices)]
        if self._buffer is None and static and None not in static:
            ta = self
            for i, row in zip(static, unstack(value)):
                ta = ta._write_listed(i, row)
            return ta
        rows = tuple(value._v.shape)[1:]
        ta = self._as_buffer(rows, "scatter at indices known only when the function runs")
        ta._check_shape(rows)
        idx = convert_to_tensor(indices, dtype="int32")
        new = ta._derive(buffer=_buffer_scatter(ta._buffer, idx, value))
        new._length = ta._length if not ta._dynamic else Tensor(
            jnp.maximum(ta._length._value, jnp.max(idx._value, initial=-1) + 1))
        return new

    def split(self, value, lengths, name=None):
        """Splits ``value`` along its first axis into pieces of ``lengths``, one per element."""

        value, sizes = self._element(value), [_static_index(n) for n in _index_list(lengths)]
        if None in sizes:
            raise ValueError("TensorArray.split needs lengths known while tracing. Received: "
                             f"lengths={lengths!r}")
        ta = self
        for i, piece in enumerate(split(value, sizes) if sizes else []):
            ta = ta._write_listed(i, piece, check=False)
        return ta

    # -- reading ----------------------------------------------------------------------------
    def read(self, index, name=None):
        """The element at ``index`` (zeros if it was never written)."""
        i = _static_index(index)
        if self._buffer is not None or i is None:
            ta = self._as_buffer(None, "read at an index known only when the function runs")
            return _buffer_read(ta._buffer, _index_tensor(index))
        items = self._store.items
        if not 0 <= i < len(items):
            raise OutOfRangeError(f"Tried to read from index {i} but array size is: {len(items)}. "
                                  "Read an index in [0, size).")
        item = items[i]
        if item is _CLEARED:
            raise RuntimeCheckError(f"Could not read index {i} twice because it was cleared after a "
                                    "previous read. Create the TensorArray with clear_after_read=False "
                                    "to read an element more than once.")
        if item is None:
            return self._zeros()
        if self._clear and not state.staging:
            items[i] = _CLEARED
        return item

    def stack(self, name=None):
        """All elements stacked into one tensor of shape ``(size,) + element_shape``."""
        if self._buffer is not None:
            return self._buffer

        items = [self._zeros() if item is None or item is _CLEARED else item for item in self._store.items]
        if not items:
            return zeros((0,) + (self._store.shape or ()), dtype=self._dtype)
        return stack(items)

    def gather(self, indices, name=None):
        """The elements at ``indices``, stacked."""
        if self._buffer is None and None not in _index_list(indices):
            return gather(self.stack(), indices)
        ta = self._as_buffer(None, "gather at indices known only when the function runs")
        return _buffer_gather(ta._buffer, convert_to_tensor(indices, dtype="int32"))

    def concat(self, name=None):
        """All elements joined along their first axis (they may differ in that axis)."""

        if self._buffer is not None:
            shape = self._buffer._v.shape
            return reshape(self._buffer, (-1,) + tuple(shape[2:]))
        items = [self._zeros() if item is None or item is _CLEARED else item for item in self._store.items]
        if not items:
            return zeros((0,), dtype=self._dtype)
        return concat(items, axis=0)

    def size(self, name=None):
        """The number of elements, an int32 scalar tensor."""
        length = self._length
        if length is None:
            length = convert_to_tensor(len(self._store.items), dtype="int32")
        if state.staging and not length.is_traced and _tensor_names.graph_name(length._v) is None:
            _tensor_names.named(length, "Const")  # a size known while tracing: a constant of TF's graph
        return length

    def identity(self):
        """A TensorArray with the same elements."""
        return self._derive()

    def close(self, name=None):
        """Forgets every element (eagerly); returns None."""
        if not state.staging:
            self._store.items.clear()

    def grad(self, source, flow=None, name=None):
        raise NotImplementedError("TensorArray.grad is TF 1 graph machinery; differentiate with "
                                  "companion.GradientTape instead.")

    # -- private: the Python list ---------------------------------------------------------------
    def _element(self, value):
        if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
            tensor = convert_to_tensor(value)
            if tensor.dtype != self._dtype:
                raise InvalidArgumentError(f"TensorArray dtype is {self._dtype.name} but Op is trying to "
                                           f"write dtype {tensor.dtype.name}. Cast the value with "
                                           f"companion.cast(value, companion.{self._dtype.name}). "
                                           f"Received: {tensor}")
            return tensor
        try:
            return convert_to_tensor(value, dtype=self._dtype)
        except (TypeError, ValueError) as error:
            raise InvalidArgumentError(f"TensorArray dtype is {self._dtype.name} but the value written "
                                       f"cannot be converted to it: {error}") from None

    def _write_listed(self, i, value, check=True):
        items = self._store.items
        if i < 0:
            raise OutOfRangeError(f"Writing to negative indices (index {i}) is not allowed.")
        if i >= len(items) and not self._dynamic:
            raise _out_of_range(f"Tried to write to index {i} but array is not resizeable and size is: "
                                f"{len(items)}. Pass a larger size, or dynamic_size=True.")
        if check:
            self._check_shape(tuple(value._v.shape))
        ta = self if not state.staging else self._derive(store=_Store(list(items), self._store.shape))
        ta._store.items.extend([None] * (i + 1 - len(items)))
        ta._store.items[i] = value
        if ta._store.shape is None and (self._infer_shape or self._declared is not None):
            ta._store.shape = tuple(value._v.shape)
        return ta if state.staging else self._derive()

    def _check_shape(self, shape):
        expected, shape = self._store.shape, tuple(shape)
        if expected is None or shape == expected:
            return
        if self._infer_shape or self._declared is not None:
            if state.staging:
                raise ValueError(f"Inconsistent shapes: saw {shape} but expected {expected}. "
                                 "Every element of a TensorArray has one shape (infer_shape=True).")
            raise ValueError(f"Incompatible shape for value ({shape}), expected ({expected}). "
                             "Every element of a TensorArray has one shape: reshape the value, or create "
                             "the TensorArray with infer_shape=False.")

    def _zeros(self):
        return zeros(self._store.shape or (), dtype=self._dtype)

    def _derive(self, store=None, buffer=None):
        new = object.__new__(TensorArray)
        new.__dict__.update(self.__dict__)
        if store is not None:
            new._store = store
        if buffer is not None:
            new._buffer = buffer
        return new

    # -- private: the buffer of a compiled loop ---------------------------------------------------
    def _as_buffer(self, shape, why, capacity=None):
        """This array as a fixed-capacity buffer (a new TensorArray; ``self`` is unchanged)."""
        if self._buffer is not None:
            return self
        element = self._store.shape if self._store.shape is not None else _shape_tuple(shape)
        if element is None:
            raise ValueError(f"TensorArray: a {why} needs the elements' shape. Pass element_shape= when "
                             "creating the TensorArray, or write an element before.")
        if capacity is None:
            capacity = self._capacity_hint
        if capacity is None:
            if self._dynamic:
                raise NeedsValues(_DYNAMIC_HELP.format(why=why))
            capacity = len(self._store.items)

        rows = [item if isinstance(item, Tensor) else None for item in self._store.items]
        rows += [None] * (capacity - len(rows))
        zero = Tensor(jnp.zeros(element, self._dtype.as_numpy_dtype))
        buffer = stack([r if r is not None else zero for r in rows]) if rows else Tensor(
            jnp.zeros((0,) + element, self._dtype.as_numpy_dtype))
        new = self._derive(store=_Store([], element), buffer=buffer)
        new._length = convert_to_tensor(len(self._store.items), dtype="int32")
        return new

    def _state(self):
        """``(arrays, meta)`` for a compiled loop's state, or ``(None, None)`` if the shape is unknown."""
        if self._buffer is None and self._store.shape is None:
            return None, None
        ta = self._as_buffer(None, "loop", capacity=self._capacity_hint or len(self._store.items))
        if ta._buffer is None:
            return None, None
        meta = (self._dtype.name, tuple(ta._buffer._v.shape), self._dynamic, self._clear,
                self._infer_shape, self._declared)
        return [ta._buffer._value, ta._length._value], meta


class _Store:
    """The list of elements (Tensors, None for unwritten, `_CLEARED`) and their shape."""

    __slots__ = ("items", "shape")

    def __init__(self, items, shape):
        self.items = items
        self.shape = shape


_DYNAMIC_HELP = (
    "TensorArray(dynamic_size=True): a {why} needs a capacity known while tracing, because a "
    "compiled program's arrays have fixed shapes (TensorFlow grows the array at run time; XLA cannot). "
    "Loop over a tensor or a range whose bounds are known while tracing (e.g. tf.range(x.shape[0])), "
    "give while_loop a maximum_iterations, start the loop body with "
    "tf.autograph.experimental.set_loop_options(maximum_iterations=N) (then stack() has N rows, "
    "zeros after the last one written), or create the TensorArray with a fixed size=.")


# -- loop state (used by companion.autograph) ---------------------------------------------------

def entering_loop(values, trip_count):
    """``values`` with every TensorArray in them ready to be a compiled loop's state."""
    return tuple(_for_loop(v, trip_count) if isinstance(v, TensorArray) else v for v in values)


def _for_loop(ta, trip_count):
    if ta._buffer is not None:
        if ta._dynamic and trip_count is not None:
            buffer = ta._buffer._value
            extra = Tensor(jnp.zeros((trip_count,) + tuple(buffer.shape[1:]), buffer.dtype))
            return ta._derive(buffer=concat([ta._buffer, extra], axis=0))
        return ta
    capacity = len(ta._store.items)
    if ta._dynamic:
        if trip_count is None:
            raise NeedsValues(_DYNAMIC_HELP.format(why="loop whose trip count is known only when the "
                                                       "function runs"))
        capacity += trip_count
    if ta._store.shape is None:
        pending = ta._derive(store=_Store(list(ta._store.items), None))
        pending._capacity_hint = capacity
        return pending
    return ta._as_buffer(None, "loop", capacity=capacity)


def flatten_state(ta):
    """``(arrays, kind)`` of a TensorArray in a loop or branch state (see companion.autograph._state)."""
    arrays, meta = ta._state()
    if arrays is None:
        return [], ("tensor_array_pending", ta)
    return arrays, ("tensor_array", meta)


def unflatten_state(arrays, meta):
    """The TensorArray a ``("tensor_array", meta)`` kind and its two arrays stand for."""
    dtype, shape, dynamic, clear, infer, declared = meta
    ta = TensorArray(dtype, size=0, dynamic_size=dynamic, clear_after_read=clear, infer_shape=infer,
                     element_shape=declared)
    ta._store = _Store([], tuple(shape[1:]))
    ta._buffer, ta._length = (a if isinstance(a, Tensor) else Tensor(a) for a in arrays)
    return ta


def with_probed_shape(ta, meta):
    """A pending TensorArray given the element shape a probe trace of the loop body found."""
    return ta._as_buffer(tuple(meta[1][1:]), "loop", capacity=meta[1][0])


@contextlib.contextmanager
def quiet_probe():
    """Hides what Python's ``print`` writes during a probe trace (the real trace prints it)."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


# -- ops on the buffer -------------------------------------------------------------------------

# Row-by-row dynamic slices rather than scatter/gather: an index out of range at run time
# writes nothing and reads zeros (XLA would clamp it to the last row).

@op("tensor_array_write")
def _buffer_write(buffer, index, value):
    inside = (index >= 0) & (index < buffer.shape[0])
    at = jnp.clip(index, 0, max(buffer.shape[0] - 1, 0))
    row = jnp.where(inside, value.astype(buffer.dtype), jax.lax.dynamic_index_in_dim(buffer, at, 0, False))
    return jax.lax.dynamic_update_index_in_dim(buffer, row, at, 0)


@op("tensor_array_scatter")
def _buffer_scatter(buffer, indices, value):
    for k in range(indices.shape[0]):
        buffer = _buffer_write.fn(buffer, indices[k], value[k])
    return buffer


@op("tensor_array_read")
def _buffer_read(buffer, index):
    inside = (index >= 0) & (index < buffer.shape[0])
    row = jax.lax.dynamic_index_in_dim(buffer, jnp.clip(index, 0, max(buffer.shape[0] - 1, 0)), 0, False)
    return jnp.where(inside, row, jnp.zeros_like(row))


@op("tensor_array_gather")
def _buffer_gather(buffer, indices):
    return jnp.stack([_buffer_read.fn(buffer, indices[k]) for k in range(indices.shape[0])]) \
        if indices.shape[0] else jnp.zeros((0,) + buffer.shape[1:], buffer.dtype)


# -- helpers ------------------------------------------------------------------------------------

def _static_size(size, dynamic):
    if size is None:
        if dynamic:
            return 0
        raise ValueError("TensorArray needs size= (or dynamic_size=True). Received: size=None")
    index = _static_index(size)
    if index is None:
        raise NeedsValues("TensorArray: size must be known while tracing (a Python int, or a tensor "
                          "computed from shapes): a compiled program's arrays have fixed shapes. Received a "
                          "size known only when the function runs; pass x.shape[0] instead of "
                          "tf.shape(x)[0].")
    if index < 0:
        raise ValueError(f"TensorArray: size must be >= 0. Received: size={index}")
    return index


def _static_index(index):
    """``index`` as a Python int when known while tracing, else None."""
    if isinstance(index, Tensor) or getattr(index, "_is_variable", False):
        value = index._value
        if isinstance(value, jax.core.Tracer):
            return None
        return int(value)
    return int(index)


def _index_tensor(index):
    return convert_to_tensor(index, dtype="int32") if not isinstance(index, Tensor) else index


def _index_list(indices):
    if isinstance(indices, Tensor):
        if isinstance(indices._value, jax.core.Tracer):
            return [None]
        return [int(i) for i in jnp.ravel(indices._value)]
    return list(indices)


def _shape_tuple(shape):
    if shape is None:
        return None
    shape = TensorShape(shape)
    if not shape.is_fully_defined():
        return None
    return shape._dims


def _out_of_range(message):
    return InvalidArgumentError(message) if state.staging else OutOfRangeError(message)

"""`RaggedTensor`: rows of different lengths, TensorFlow's ``tf.RaggedTensor``.

TF's layout: ``values`` (a tensor, or for nested raggedness another RaggedTensor) cut into
rows at ``row_splits`` (int64, ``[0, ..., len(values)]``). The values are companion Tensors,
so math on them (`map_flat_values`, elementwise ops, reductions) runs as ordinary ops, eagerly
or inside `function`; the row partition is kept on the host (NumPy), which is what lets
shapes stay static for XLA.
"""

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._ops._select import boolean_mask
from companion.ragged._to_tensor import dense_rows


class RaggedTensor:
    """Rows of different lengths: ``values`` cut at ``row_splits``.

    Example:
        >>> import companion as tf
        >>> r = tf.ragged.constant([[1, 2], [3], []])
        >>> print(r, r.shape)
        <companion.RaggedTensor [[1, 2], [3], []]> (3, None)
        >>> print(r.row_lengths())
        companion.Tensor([2 1 0], shape=(3,), dtype=int64)
    """

    _composite_tensor = True  # tf.is_tensor is True for it

    _is_ragged = True

    _uniform_row_length = None  # an int when every row has that length (a uniform dimension, as TF's)

    def __init__(self, values, row_splits, internal=False, splits_dtype=None):
        if not internal:
            raise TypeError("Build a RaggedTensor with companion.ragged.constant or a factory such as "
                            "RaggedTensor.from_row_splits(values, row_splits); the constructor is internal "
                            "(as in TF).")
        self._values = values if isinstance(values, RaggedTensor) else as_input(values)
        self._splits = np.asarray(row_splits, dtype=np.int64)
        if splits_dtype is None:  # nested rows share one splits dtype, as TF's
            splits_dtype = values._splits_dtype if isinstance(values, RaggedTensor) else _dtypes.int64
        self._splits_dtype = _dtypes.as_dtype(splits_dtype)

    # -- factories (TF's classmethods) ------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Rows ``values[row_splits[i]:row_splits[i + 1]]``.

        Raises:
            InvalidArgumentError (a ValueError): ``row_splits`` does not start at 0, decreases,
                or does not end at the number of values.
        """
        values = _as_values(values)
        splits = _host_ints(row_splits, "row_splits")
        if validate:
            _check_splits(splits, _nvals(values))
        return cls(values, splits, internal=True, splits_dtype=_splits_dtype_of(row_splits, values))

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Consecutive rows of the given lengths (they must add up to the number of values)."""
        lengths = _host_ints(row_lengths, "row_lengths")
        if validate and (lengths < 0).any():
            _invalid(f"row_lengths must not be negative. Received: {lengths.tolist()}")
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(_splits_dtype_of(row_lengths, values)._np)
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Rows given by each value's row index (sorted ascending); ``nrows`` adds empty rows."""
        rowids = _host_ints(value_rowids, "value_rowids")
        if validate and rowids.size and ((np.diff(rowids) < 0).any() or rowids[0] < 0):
            _invalid(f"value_rowids must be non-negative and sorted ascending. Received: {rowids.tolist()}")
        count = int(rowids[-1]) + 1 if rowids.size else 0
        nrows = count if nrows is None else int(np.asarray(getattr(nrows, "_value", nrows)))
        if validate and nrows < count:
            _invalid(f"nrows={nrows} is smaller than the rows value_rowids uses ({count}).")
        lengths = np.bincount(rowids, minlength=nrows) if rowids.size else np.zeros(nrows, np.int64)
        lengths = lengths.astype(_splits_dtype_of(value_rowids, values)._np)
        return cls.from_row_lengths(values, lengths, validate=validate)

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None):
        """The rows of a dense tensor, cut to ``lengths`` or with trailing ``padding`` removed."""
        if ragged_rank != 1:
            raise NotImplementedError("companion's RaggedTensor.from_tensor supports ragged_rank=1.")
        if lengths is not None and padding is not None:
            raise ValueError("from_tensor takes lengths or padding, not both.")
        dense = as_input(tensor)
        array = np.asarray(dense._value)
        if array.ndim < 2:
            raise ValueError(f"from_tensor needs a tensor of rank >= 2. Received shape {dense.shape}.")
        width = array.shape[1]
        if lengths is not None:
            row_lengths = _host_ints(lengths, "lengths")
        elif padding is not None:
            pad = np.asarray(getattr(padding, "_value", padding))
            is_pad = array == pad
            is_pad = is_pad.reshape(is_pad.shape[:2] + (-1,)).all(axis=2)
            keep = ~is_pad[:, ::-1]  # trailing padding only
            row_lengths = np.where(keep.any(axis=1), width - np.argmax(keep, axis=1), 0)
        else:
            row_lengths = np.full(array.shape[0], width)
        mask = np.arange(width)[None, :] < row_lengths[:, None]

        return cls.from_row_lengths(boolean_mask(dense, mask), row_lengths)

    @classmethod
    def from_rows(cls, rows, dtype):
        """One from a list of 1-D NumPy arrays (used by the string splitting ops)."""
        lengths = [len(r) for r in rows]
        flat = np.concatenate(rows) if rows else np.zeros(0)
        flat = flat.astype(object) if dtype == _dtypes.string else flat.astype(dtype._np)
        return cls.from_row_lengths(_tensor_of(flat), lengths)

    # -- what it is ---------------------------------------------------------------------------
    @property
    def values(self):
        """The concatenated rows (a Tensor, or a RaggedTensor when nested)."""
        return self._values

    @property
    def flat_values(self):
        """The innermost values: a Tensor however deeply the rows are nested."""
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values._values
        return values

    @property
    def row_splits(self):
        return self._index_tensor(self._splits)

    @property
    def nested_row_splits(self):
        out, node = [], self
        while isinstance(node, RaggedTensor):
            out.append(node.row_splits)
            node = node._values
        return tuple(out)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._splits_dtype

    def with_row_splits_dtype(self, dtype):
        """The same rows with row splits of ``dtype`` (int32 or int64), at every ragged level."""
        dtype = _dtypes.as_dtype(dtype)
        if dtype not in (_dtypes.int32, _dtypes.int64):
            raise ValueError(f"dtype must be int32 or int64. Received: dtype={dtype!r}")
        values = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) \
            else self._values
        out = RaggedTensor(values, self._splits, internal=True, splits_dtype=dtype)
        out._uniform_row_length = self._uniform_row_length
        return out

    @property
    def ragged_rank(self):
        return 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0)

    @property
    def shape(self):
        """``(nrows, None, ...)``: ragged dimensions are None, the inner ones are known."""
        inner = self._values.shape.as_list()[1:]
        return TensorShape([self._nrows(), self._uniform_row_length, *inner])

    @property
    def ndim(self):
        return len(self.shape)

    def get_shape(self):
        return self.shape

    def row_lengths(self, axis=1, name=None):
        """The length of each row (in the row splits' dtype)."""
        return self._index_tensor(np.diff(self._splits))

    def nrows(self, out_type=None, name=None):
        return self._index_tensor(np.int64(self._nrows()), out_type)

    def row_starts(self, name=None):
        return self._index_tensor(self._splits[:-1])

    def row_limits(self, name=None):
        return self._index_tensor(self._splits[1:])

    def value_rowids(self, name=None):
        """The row of each value (in the row splits' dtype)."""
        return self._index_tensor(self._rowids())

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The shape of the smallest dense tensor that holds every row (int64)."""
        inner = self._values.bounding_shape().numpy().tolist()[1:] if isinstance(
            self._values, RaggedTensor) else list(self._values.shape.as_list()[1:])
        width = int(np.diff(self._splits).max()) if self._nrows() else 0
        shape = np.asarray([self._nrows(), width, *inner], np.int64)
        return self._index_tensor(shape if axis is None else shape[axis], out_type)

    def with_values(self, new_values):
        """The same rows holding ``new_values`` (same length as `values`)."""
        return RaggedTensor.from_row_splits(new_values, self._splits.astype(self._splits_dtype._np))

    def with_flat_values(self, new_values):
        """The same nested rows holding ``new_values`` (same length as `flat_values`)."""
        if isinstance(self._values, RaggedTensor):
            return RaggedTensor(self._values.with_flat_values(new_values), self._splits, internal=True,
                                splits_dtype=self._splits_dtype)
        return self.with_values(new_values)

    # -- conversions --------------------------------------------------------------------------
    def to_list(self):
        """Nested Python lists of the elements (``bytes`` for strings)."""
        inner = self._values.to_list() if isinstance(self._values, RaggedTensor) else \
            np.asarray(self._values.numpy()).tolist()
        return [inner[a:b] for a, b in zip(self._splits[:-1].tolist(), self._splits[1:].tolist())]

    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense tensor, rows padded at the end with ``default_value`` (0, ``b''`` or False)."""
        if isinstance(self._values, RaggedTensor):
            values = self._values.to_tensor(default_value)
        else:
            values = self._values

        return dense_rows(values, self._rowids(), self._positions(), self._nrows(),
                               int(np.diff(self._splits).max()) if self._nrows() else 0, default_value,
                               shape)

    def numpy(self):
        """An object array holding one NumPy array per row, as TF gives it."""
        flat = np.asarray(self._values.numpy()) if not isinstance(self._values, RaggedTensor) else None
        out = np.empty(self._nrows(), dtype=object)
        for i, (a, b) in enumerate(zip(self._splits[:-1], self._splits[1:])):
            out[i] = flat[a:b] if flat is not None else self._values[int(a):int(b)].numpy()
        return out

    # -- Python protocol ----------------------------------------------------------------------
    def __getitem__(self, key):
        if isinstance(key, tuple):
            if not key:
                return self
            row, rest = key[0], key[1:]
            picked = self[row]
            if not rest:
                return picked
            if not isinstance(row, slice):  # one row: a tensor (or a RaggedTensor), indexed further
                return picked[rest]
            return picked._each_row(rest)
        if isinstance(key, slice):
            start, stop, step = key.indices(self._nrows())
            if step != 1:
                raise ValueError("companion's RaggedTensor slices rows with step 1 only.")
            stop = max(start, stop)
            a, b = int(self._splits[start]), int(self._splits[stop])
            return RaggedTensor(self._values[a:b], self._splits[start:stop + 1] - a, internal=True,
                                splits_dtype=self._splits_dtype)
        index = int(getattr(key, "_value", key))
        if not -self._nrows() <= index < self._nrows():
            raise RuntimeCheckError(f"Row index {index} is out of range for a RaggedTensor with "
                                    f"{self._nrows()} rows.")
        index %= self._nrows()
        return self._values[int(self._splits[index]):int(self._splits[index + 1])]

    def _each_row(self, key):
        """``rt[rows, key...]``: ``key[0]`` (a slice) taken inside every row, the rest of ``key`` inside
        the values (TF slices a ragged dimension; an integer there has no row-independent meaning)."""
        # deferred: companion.ragged._array_ops imports this module at its top
        from companion.ragged._array_ops import take_rows

        if not isinstance(key[0], slice):
            raise ValueError("Cannot index into an inner ragged dimension. Slice it (rt[:, :2]) or "
                             "take one row first (rt[i, j]).")
        bounds = zip(self._splits[:-1].tolist(), self._splits[1:].tolist())
        pieces = [np.arange(a, b, dtype=np.int64)[key[0]] for a, b in bounds]
        positions = np.concatenate(pieces) if pieces else np.zeros(0, np.int64)
        splits = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.int64)
        values = take_rows(self._values, positions)
        if len(key) > 1:
            values = values[(slice(None), *key[1:])]
        return RaggedTensor(values, splits, internal=True, splits_dtype=self._splits_dtype)

    def __len__(self):
        return self._nrows()

    def __iter__(self):
        return (self[i] for i in range(self._nrows()))

    def __bool__(self):
        raise TypeError("The truth value of a RaggedTensor is ambiguous; compare its values with "
                        "companion.reduce_all / reduce_any.")

    def __repr__(self):
        return f"<companion.RaggedTensor {_text(self.to_list(), self.dtype)}>"

    __str__ = __repr__

    # -- TF's dispatch of ops to ragged values (companion._core._dispatch) ----------------------
    @staticmethod
    def _dispatch_api(api, *args, **kwargs):
        """The ragged implementation of the op ``api`` (``"concat"``, ``"gather"``, ...)."""
        # deferred: companion.ragged._dispatch_table imports the ragged ops, which import this module
        from companion.ragged._dispatch_table import RAGGED_APIS

        return RAGGED_APIS[api](*args, **kwargs)

    @staticmethod
    def _dispatch_elementwise(op, *args, **kwargs):
        # deferred: companion.ragged._map_flat_values imports this module at its top
        from companion.ragged._map_flat_values import elementwise

        return elementwise(op, *args, **kwargs)

    def _dispatch_reduce(self, name, dense_reduce, axis, keepdims):
        # deferred: companion.ragged._reduce imports this module at its top
        from companion.ragged._reduce import reduce

        return reduce(name, dense_reduce, self, axis=axis, keepdims=keepdims)

    # -- internals ----------------------------------------------------------------------------
    def _index_tensor(self, array, out_type=None):
        """A tensor of row indices or sizes, in ``out_type`` or the row splits' dtype (as TF)."""
        dtype = self._splits_dtype if out_type is None else _dtypes.as_dtype(out_type)
        return _tensor_of(np.asarray(array).astype(dtype._np))

    def _nrows(self):
        return len(self._splits) - 1

    def _rowids(self):
        return np.repeat(np.arange(self._nrows(), dtype=np.int64), np.diff(self._splits))

    def _positions(self):
        """Each value's position within its row."""
        starts = np.repeat(self._splits[:-1], np.diff(self._splits))
        return np.arange(self._splits[-1], dtype=np.int64) - starts


# -- helpers ---------------------------------------------------------------------------------

def _as_values(values):
    return values if isinstance(values, RaggedTensor) else as_input(values)


def _nvals(values):
    return values._nrows() if isinstance(values, RaggedTensor) else (values.shape[0] or 0)


def _host_ints(value, what):
    array = getattr(value, "_value", value)
    try:
        array = np.asarray(array)
    except Exception as error:  # a traced tensor
        raise TypeError(f"RaggedTensor {what} must be known when the RaggedTensor is built (companion "
                        "keeps the row partition on the host so shapes stay static). "
                        f"Received {value!r}.") from error
    if array.ndim != 1 or not (array.dtype.kind in "iu" or array.size == 0):
        raise TypeError(f"RaggedTensor {what} must be a 1-D list or tensor of integers. Received: {value!r}")
    return array.astype(np.int64)


def _text(rows, dtype):
    """Nested rows as TF prints them: float32/float16 values at their own precision (``1.4142135``)."""
    if isinstance(rows, list):
        return "[" + ", ".join(_text(row, dtype) for row in rows) + "]"
    if isinstance(rows, float) and dtype in (_dtypes.float32, _dtypes.float16, _dtypes.bfloat16):
        return str(np.float32(rows)) if dtype == _dtypes.float32 else str(np.float16(rows))
    return repr(rows)


def _splits_dtype_of(given, values):
    """The row splits dtype TF gives a RaggedTensor built from ``given`` (a tensor or array keeps its
    int32/int64; Python lists give int64)."""
    dtype = getattr(given, "dtype", None)
    if dtype is None or str(getattr(dtype, "name", dtype)) not in ("int32", "int64"):
        return values._splits_dtype if isinstance(values, RaggedTensor) else _dtypes.int64
    return _dtypes.as_dtype(str(getattr(dtype, "name", dtype)))


def _check_splits(splits, nvals):
    if splits.size == 0 or splits[0] != 0 or (np.diff(splits) < 0).any() or splits[-1] != nvals:
        _invalid(f"row_splits must start at 0, never decrease, and end at the number of values ({nvals}). "
                 f"Received: {splits.tolist()}")


def _invalid(message):
    raise InvalidArgumentError(message)


def _tensor_of(array):
    array = np.asarray(array)
    return Tensor(array.astype(object) if array.dtype.kind in "OSU" else jnp.asarray(array))

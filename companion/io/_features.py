"""Feature specifications for parsing ``tf.train.Example`` records: `FixedLenFeature`, `VarLenFeature`."""

import collections

from companion._core import _dtypes

PARSABLE = ("int64", "float32", "string")
KIND_OF = {"int64": "int64_list", "float32": "float_list", "string": "bytes_list"}


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature with a fixed number of values, parsed to a dense tensor of ``shape``.

    Args:
        shape: the shape of the parsed tensor (``[]`` for a scalar); the record must hold
            exactly that many values.
        dtype: ``companion.int64``, ``companion.float32`` or ``companion.string`` (the three
            kinds of value an Example can hold).
        default_value: used when a record lacks the feature; without it a missing feature
            is an error. A single value fills the whole shape.
    """

    __slots__ = ()

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, _shape_tuple(shape), check_dtype(dtype, cls.__name__), default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature with any number of values, parsed to a `SparseTensor` (dense with ``sparse_to_dense``).

    Args:
        dtype: ``companion.int64``, ``companion.float32`` or ``companion.string``.
    """

    __slots__ = ()

    def __new__(cls, dtype):
        return super().__new__(cls, check_dtype(dtype, cls.__name__))


def check_dtype(dtype, what):
    """``dtype`` as a DType that an Example can hold, or a clear error."""
    dtype = _dtypes.as_dtype(dtype)
    if dtype.name not in PARSABLE:
        raise ValueError(f"{what}: an Example holds only int64, float32 and string (bytes) values. "
                         f"Received dtype={dtype.name}. Parse as int64/float32, then companion.cast it.")
    return dtype


def _shape_tuple(shape):
    if shape is None:
        raise ValueError("FixedLenFeature needs a shape: [] for a scalar, [3] for three values. "
                         "For a varying number of values use VarLenFeature.")
    dims = [shape] if isinstance(shape, int) else list(shape)
    if any(d is None or int(d) < 0 for d in dims):
        raise ValueError(f"FixedLenFeature shape must be fully defined with non-negative sizes. "
                         f"Received: shape={shape!r}. Use VarLenFeature for a varying length.")
    return tuple(int(d) for d in dims)

"""`RaggedTensorSpec`: the type of a RaggedTensor (TF's ``tf.RaggedTensorSpec``), as tf.data shows it.

A dataset whose elements are (or batch into) RaggedTensors reports this spec in its
``element_spec``. ``ragged_rank`` counts the ragged dimensions after the first; ``0`` is the
spec of one row of a ragged tensor (a dense tensor of unknown length, as tf.data yields it).
"""

from companion._core import _dtypes
from companion._core._shape import TensorShape


class RaggedTensorSpec:
    """The shape, dtype and ragged rank of a RaggedTensor.

    Example:
        >>> import companion as tf
        >>> tf.RaggedTensorSpec([None, None], tf.int32)
        RaggedTensorSpec(TensorShape([None, None]), companion.int32, 1, companion.int64)
        >>> tf.RaggedTensorSpec([3, None]).ragged_rank
        1
    """

    _is_ragged_spec = True

    def __init__(self, shape=None, dtype=_dtypes.float32, ragged_rank=None, row_splits_dtype=_dtypes.int64,
                 flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._row_splits_dtype = _dtypes.as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in (_dtypes.int32, _dtypes.int64):
            raise ValueError(f"row_splits_dtype must be int32 or int64. Received: {row_splits_dtype!r}")
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int) or ragged_rank < 0:
            raise ValueError(f"ragged_rank must be a non-negative int. Received: {ragged_rank!r}")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"ragged_rank must be smaller than the rank of shape. Received ragged_rank="
                             f"{ragged_rank} for shape {self._shape}.")
        self._ragged_rank = ragged_rank

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)

    @property
    def value_type(self):
        # deferred: companion.ragged's package imports this module at its top
        from companion.ragged._ragged_tensor import RaggedTensor

        return RaggedTensor

    def _key(self):
        dims = None if self._shape.rank is None else tuple(self._shape.as_list())
        return dims, self._dtype, self._ragged_rank, self._row_splits_dtype

    def __eq__(self, other):
        return isinstance(other, RaggedTensorSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r})")

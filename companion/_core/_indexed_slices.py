"""`IndexedSlices`: a sparse set of rows of a dense tensor, TensorFlow's ``tf.IndexedSlices``.

``values[k]`` is row ``indices[k]`` of a tensor of shape ``dense_shape``; rows not listed are
zero and a row listed twice is the sum of its entries. Variables take them in ``scatter_add``,
``scatter_update`` and friends; `companion.convert_to_tensor` (and every op) turns them into the
dense tensor, which needs ``dense_shape``.
"""

from companion._core._dtypes import as_dtype
from companion._core._shape import TensorShape


class IndexedSlices:
    """Rows ``indices`` of a tensor of shape ``dense_shape`` holding ``values`` (TF's class).

    Args:
        values: a tensor whose first dimension runs over the slices.
        indices: a 1-D integer tensor, the row of each slice.
        dense_shape: optional 1-D integer tensor, the shape of the dense tensor.

    Example:
        >>> import companion as tf
        >>> rows = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
        >>> print(tf.convert_to_tensor(rows))
        companion.Tensor(
        [[0. 0.]
         [1. 2.]
         [0. 0.]], shape=(3, 2), dtype=float32)
    """

    _composite_tensor = True  # tf.is_tensor is True for it

    def __init__(self, values, indices, dense_shape=None):
        # deferred: a top-level import is a cycle (companion._core._convert is still loading then)
        from companion._core._convert import as_input, convert_to_tensor

        self._values = as_input(values)
        self._indices = convert_to_tensor(indices)
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def values(self):
        """The slices, a tensor of shape ``indices.shape + dense_shape[1:]``."""
        return self._values

    @property
    def indices(self):
        """The row of each slice (a 1-D integer tensor)."""
        return self._indices

    @property
    def dense_shape(self):
        """The dense tensor's shape (a 1-D integer tensor), or None when not given."""
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self):
        """The dense shape as a `TensorShape` (unknown without ``dense_shape``, as in TF)."""
        if self._dense_shape is None or self._dense_shape.is_traced:
            return TensorShape(None)
        return TensorShape([int(d) for d in self._dense_shape.numpy()])

    @property
    def device(self):
        return self._values.device

    def __neg__(self):
        return IndexedSlices(-self._values, self._indices, self._dense_shape)

    def __str__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"

    def _dense(self, dtype=None):
        """The dense tensor: zeros of ``dense_shape`` with each slice added at its row."""
        # deferred: the op layer is built on this module (an upward import is a cycle)
        from companion._ops._array import expand_dims
        from companion._ops._scatter import scatter_nd

        if self._dense_shape is None:
            raise ValueError(
                "An IndexedSlices without dense_shape cannot become a dense tensor: the number of "
                f"rows is unknown. Received: {self!s}. Pass dense_shape= when creating it, e.g. "
                "companion.IndexedSlices(values, indices, dense_shape=variable.shape).")
        if dtype is not None and self.dtype.name != _dtype_name(dtype):
            raise ValueError(f"Tensor conversion requested dtype {_dtype_name(dtype)} for IndexedSlices "
                             f"of dtype {self.dtype.name}: {self!s}. Cast its values first.")
        return scatter_nd(expand_dims(self._indices, -1), self._values, self.shape.as_list())


def _dtype_name(dtype):
    return as_dtype(dtype).name

"""`SparseTensor` (what a `VarLenFeature` parses to) and `sparse_to_dense`."""

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import constant, convert_to_tensor
from companion._core._op import op
from companion._core._shape import TensorShape


class SparseTensor:
    """``tf.SparseTensor``: the ``values`` at ``indices`` of a tensor of shape ``dense_shape``.

    Args:
        indices: int64 ``[N, rank]`` positions, in row-major order.
        values: the ``N`` values (any dtype, strings included).
        dense_shape: int64 ``[rank]``: the shape of the dense tensor.

    Example:
        >>> import companion as tf
        >>> sp = tf.io.SparseTensor(indices=[[0, 1], [2, 0]], values=[7, 8], dense_shape=[3, 2])
        >>> print(tf.io.sparse_to_dense(sp))
        companion.Tensor(
        [[0 7]
         [0 0]
         [8 0]], shape=(3, 2), dtype=int32)
    """

    _composite_tensor = True  # tf.is_tensor is True for it

    def __init__(self, indices, values, dense_shape):
        self.indices = convert_to_tensor(np.asarray(indices, dtype=np.int64).reshape(-1, len(dense_shape)))
        self.values = values if hasattr(values, "dtype") and hasattr(values, "numpy") else constant(values)
        self.dense_shape = constant(np.asarray(dense_shape, dtype=np.int64))
        if self.values.shape[0] != self.indices.shape[0]:
            raise ValueError(f"SparseTensor needs one index row per value. Received {self.indices.shape[0]} "
                             f"index rows and {self.values.shape[0]} values.")

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return TensorShape([int(d) for d in self.dense_shape.numpy()])

    def __repr__(self):
        return (f"SparseTensor(indices={self.indices!s}, values={self.values!s}, "
                f"dense_shape={self.dense_shape!s})")


@op("sparse_to_dense", static=("shape",))
def _scatter(indices, values, default, shape):
    dense = jnp.full(shape, default, dtype=values.dtype)
    return dense.at[tuple(indices.T)].set(values)


def sparse_to_dense(sp_input, default_value=None):
    """The dense tensor of a `SparseTensor`, with ``default_value`` (0, or ``b''`` for strings) elsewhere.

    Same as ``tf.sparse.to_dense``.
    """
    shape = tuple(int(d) for d in sp_input.dense_shape.numpy())
    if sp_input.dtype == _dtypes.string:
        dense = np.full(shape, b"" if default_value is None else default_value, dtype=object)
        index = tuple(sp_input.indices.numpy().T)
        dense[index] = sp_input.values.numpy()
        return constant(dense)
    default = constant(0 if default_value is None else default_value, dtype=sp_input.dtype)
    return _scatter(sp_input.indices, sp_input.values, default, shape=shape)

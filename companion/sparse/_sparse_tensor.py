"""`SparseTensor`: TensorFlow's ``tf.SparseTensor``, the ``values`` at ``indices`` of a tensor of
shape ``dense_shape``.

``indices`` (int64 ``[N, rank]``) and ``values`` (``[N]``) are companion Tensors, so ops on them
run eagerly or inside `function` and tapes see them (a gradient reaches ``values``); the dense
shape lives on the host, which keeps every shape static for XLA. The class is a JAX pytree over
its two tensors, so `function` takes and returns SparseTensors (one trace per dense shape).
"""

import jax
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, constant, is_tensor
from companion._core._shape import TensorShape
from companion._ops._array import broadcast_to
from companion._ops._math import cast
from companion._ops._select import gather_nd
from companion._ops._static import static_array


class SparseTensor:
    """The ``values`` at ``indices`` of a tensor of shape ``dense_shape``; zero (or ``b''``) elsewhere.

    Args:
        indices: ``[N, rank]`` integer positions (stored as int64); `sparse.to_dense` and most
            `companion.sparse` ops expect them in row-major order (`sparse.reorder` sorts them).
        values: the ``N`` values, any dtype (strings too).
        dense_shape: the ``rank`` sizes of the dense tensor (Python ints, a list or a concrete tensor).

    Example:
        >>> import companion as tf
        >>> sp = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[7, 8], dense_shape=[3, 2])
        >>> print(tf.sparse.to_dense(sp))
        companion.Tensor(
        [[0 7]
         [0 0]
         [8 0]], shape=(3, 2), dtype=int32)
        >>> print(tf.sparse.reduce_sum(sp * 2, axis=1))
        companion.Tensor([14  0 16], shape=(3,), dtype=int32)
    """

    _composite_tensor = True  # tf.is_tensor is True for it

    def __init__(self, indices, values, dense_shape):
        shape = static_array(dense_shape, "SparseTensor: dense_shape").astype(np.int64).reshape(-1)
        if (shape < 0).any():
            raise ValueError(f"SparseTensor: dense_shape must hold sizes >= 0. Received: {shape.tolist()}")
        if not is_tensor(indices):
            host = np.asarray(indices, np.int64)
            indices = constant(host.reshape(0, len(shape)) if host.size == 0 else host)
        indices = as_input(indices)
        if not indices.dtype.is_integer:
            raise TypeError(f"SparseTensor: indices must be integers. Received dtype {indices.dtype.name}")
        if indices.dtype != _dtypes.int64:
            indices = cast(indices, _dtypes.int64)
        values = as_input(values)
        if indices.shape.rank != 2 or indices.shape[1] != len(shape):
            raise ValueError(f"SparseTensor: indices must have shape [N, {len(shape)}] (one column per "
                             f"dimension of dense_shape {shape.tolist()}). Received shape "
                             f"{indices.shape.as_list()}")
        if values.shape.rank != 1 or values.shape[0] != indices.shape[0]:
            raise ValueError(f"SparseTensor: values must be a vector with one value per index row: "
                             f"{indices.shape[0]} index rows, values of shape {values.shape.as_list()}.")
        self._indices, self._values, self._shape = indices, values, tuple(int(d) for d in shape)

    @classmethod
    def from_value(cls, sparse_tensor_value):
        """A SparseTensor from another (TF's ``SparseTensorValue`` included): its three fields."""
        value = sparse_tensor_value
        return cls(value.indices, value.values, value.dense_shape)

    # -- TF's attributes ---------------------------------------------------------------------
    indices = property(lambda self: self._indices, doc="int64 ``[N, rank]``: the positions of the values.")
    values = property(lambda self: self._values, doc="``[N]``: the values at ``indices``.")

    @property
    def dense_shape(self):
        """int64 ``[rank]``: the shape of the dense tensor, as a tensor."""
        return constant(np.asarray(self._shape, np.int64).reshape(-1))

    @property
    def shape(self):
        return TensorShape(list(self._shape))

    def get_shape(self):
        return self.shape

    @property
    def dtype(self):
        return self._values.dtype

    def with_values(self, new_values):
        """The same positions and dense shape with ``new_values`` (one per index row)."""
        return SparseTensor(self._indices, new_values, self._shape)

    def consumers(self):
        return []

    # -- arithmetic TF defines on SparseTensor: scaling by dense tensors -----------------------
    def _scaled(self, other, combine):
        if isinstance(other, SparseTensor):
            raise TypeError("SparseTensor * / SparseTensor is not defined (as in TF). Use "
                            "companion.sparse.map_values, or convert one side with sparse.to_dense.")
        other = as_input(other, self.dtype)
        dense = broadcast_to(other, list(self._shape))
        return self.with_values(combine(self._values, gather_nd(dense, self._indices)))

    def __mul__(self, other):
        return self._scaled(other, lambda v, d: v * d)

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self._scaled(other, lambda v, d: v / d)

    def __div__(self, other):
        return self.__truediv__(other)

    def __bool__(self):
        raise TypeError("The truth value of a SparseTensor is ambiguous: it is a whole tensor. Compare "
                        "its values (sp.values) or its dense form (companion.sparse.to_dense(sp)).")

    def __repr__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self.dense_shape!s})")


def _flatten(sp):
    return (sp._indices, sp._values), sp._shape


def _unflatten(shape, children):
    sp = SparseTensor.__new__(SparseTensor)
    sp._indices, sp._values = children
    sp._shape = shape
    return sp


jax.tree_util.register_pytree_node(SparseTensor, _flatten, _unflatten)


def as_sparse(value, what):
    """``value`` if it is a SparseTensor, else a TypeError naming ``what``."""
    if not isinstance(value, SparseTensor):
        raise TypeError(f"{what} takes a SparseTensor. Received: {type(value).__name__} {value!r}. "
                        "Make one with companion.SparseTensor(indices, values, dense_shape) or "
                        "companion.sparse.from_dense(tensor).")
    return value


def host_indices(sp, what):
    """``sp``'s indices as a NumPy array; a TypeError when they are computed inside a `function`
    (``what``'s result size depends on them, and XLA compiles fixed shapes)."""
    if sp.indices.is_traced:
        raise TypeError(f"{what}: the result's size depends on the SparseTensor's indices, which are "
                        "computed inside this function (XLA compiles fixed shapes). Call it eagerly, or "
                        "build the SparseTensor outside the function and pass it in.")
    return sp.indices.numpy()

"""`io.SparseTensor` (what a `VarLenFeature` parses to) is `companion.SparseTensor`;
`io.sparse_to_dense` is `sparse.to_dense`."""

from companion.sparse._convert import to_dense
from companion.sparse._sparse_tensor import SparseTensor


def sparse_to_dense(sp_input, default_value=None):
    """The dense tensor of a `SparseTensor`, with ``default_value`` (0, or ``b''`` for strings) elsewhere.

    Same as ``tf.sparse.to_dense``.
    """
    return to_dense(sp_input, default_value)


__all__ = ["SparseTensor", "sparse_to_dense"]

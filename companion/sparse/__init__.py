"""``companion.sparse``: TensorFlow's ``tf.sparse`` and `SparseTensor` (values at indices).

A `SparseTensor`'s indices and values are ordinary tensors (tapes reach the values; the ops
below are compositions of gathers, scatters and segment ops that run inside `function`); its
dense shape is static. Ops whose result size depends on the indices' values (`add` of two
SparseTensors, `slice`, `retain` with a traced mask, `fill_empty_rows`, `from_dense`,
``reduce_*(output_is_sparse=True)``) need those values: eager, or a SparseTensor built outside.
"""

from companion.sparse._combine import add, map_values
from companion.sparse._convert import eye, from_dense, to_dense
from companion.sparse._layout import (
           concat,
           expand_dims,
           fill_empty_rows,
           reorder,
           reshape,
           retain,
           slice,
           transpose,
)
from companion.sparse._matmul import sparse_dense_matmul
from companion.sparse._reduce import reduce_max, reduce_sum, softmax
from companion.sparse._segment import maximum, minimum, segment_mean, segment_sqrt_n, segment_sum
from companion.sparse._sparse_tensor import SparseTensor

matmul = sparse_dense_matmul  # tf.sparse.matmul, TF's other name for it

__all__ = ["SparseTensor", "add", "concat", "expand_dims", "eye", "fill_empty_rows", "from_dense",
           "map_values", "matmul", "maximum", "minimum", "reduce_max", "reduce_sum", "reorder", "reshape",
           "retain", "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax",
           "sparse_dense_matmul", "to_dense", "transpose"]

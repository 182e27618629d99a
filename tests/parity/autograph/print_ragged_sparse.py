"""tf.print of ragged and sparse tensors, eagerly, nested in structures and inside a function."""
import sys

import tensorflow as tf

ragged = tf.ragged.constant([[1.5, 2.0], [], [3.0]])
sparse = tf.sparse.SparseTensor([[0, 1], [1, 0]], [5.5, 6.0], [2, 2])
tf.print(ragged, output_stream=sys.stdout)
tf.print(tf.ragged.constant([[[1], [2, 3]], [[4]]]), tf.ragged.constant([["a", "b"], ["c"]]),
         output_stream=sys.stdout)
tf.print(tf.ragged.constant([[True], [False, True]]), output_stream=sys.stdout)
tf.print(tf.ragged.constant([list(range(10)), [1]]), output_stream=sys.stdout)
tf.print(tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7]]), summarize=2, output_stream=sys.stdout)
tf.print(sparse, output_stream=sys.stdout)
tf.print("r:", ragged, [ragged], {"s": sparse}, output_stream=sys.stdout)


@tf.function
def show(x):
    rows = tf.RaggedTensor.from_row_lengths(x, [2, 1])
    tf.print(rows, rows * 2.0, output_stream=sys.stdout)
    tf.print(tf.SparseTensor([[0, 0], [0, 2]], x[:2], [1, 3]), output_stream=sys.stdout)


show(tf.constant([1.0, 0.0, 3.0]))
show(tf.constant([4.0, 5.0, 6.0]))

"""``companion.ragged``: TensorFlow's ``tf.ragged`` and `RaggedTensor` (rows of different lengths).

A `RaggedTensor` keeps TF's layout, ``values`` cut at ``row_splits``; the values are ordinary
tensors (math on them runs as ops, eagerly or inside `function`, and tapes see it), the row
partition lives on the host so every shape stays static for XLA. Elementwise ops
(``tf.math.*``, ``+ - * /``), ``cast`` and the reductions (``reduce_sum``/``mean``/``max``/...
over ``axis`` None, 0 or 1) accept RaggedTensors, as TF dispatches them.
"""

from companion.ragged import _conversions, _operators  # noqa: F401  (more of RaggedTensor's methods)
from companion.ragged._array_ops import stack
from companion.ragged._constant import constant
from companion.ragged._map_flat_values import map_flat_values
from companion.ragged._ragged_tensor import RaggedTensor
from companion.ragged._row_partition import range, row_splits_to_segment_ids, segment_ids_to_row_splits
from companion.ragged._spec import RaggedTensorSpec
from companion.ragged._stack_mask import boolean_mask

__all__ = ["RaggedTensor", "RaggedTensorSpec", "boolean_mask", "constant", "map_flat_values", "range",
           "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack"]

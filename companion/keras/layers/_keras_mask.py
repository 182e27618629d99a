"""The Keras mask carried by a tensor: which timesteps of a sequence are real (True) or padding.

Keras 3 stores it as a ``_keras_mask`` attribute on the tensor; companion keeps it in a
`TensorSideTable` (dropped with the tensor), read with `get_keras_mask`. A layer's output
carries the mask its ``compute_mask`` returns; ops outside layers make new tensors without
one, as in Keras.
"""

from companion.keras._tensor_side_table import TensorSideTable

_MASKS = TensorSideTable()

get_keras_mask = _MASKS.get  # the mask attached to a tensor, or None
set_keras_mask = _MASKS.set  # attaches a mask to a tensor (None removes it)

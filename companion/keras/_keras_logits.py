"""The logits behind a Keras sigmoid or softmax output, for the cross-entropies.

Keras 3 on TF stores them as a ``_keras_logits`` attribute on the output of
``keras.activations.sigmoid``/``softmax`` (and so of ``Dense(activation="sigmoid")``, the
``Activation`` and ``Softmax`` layers, ``keras.ops.sigmoid``/``softmax``); the binary,
categorical and sparse categorical cross-entropies then compute from those logits, as with
``from_logits=True``. companion keeps them in a `TensorSideTable` (dropped with the output
tensor), as it keeps Keras masks (`companion.keras.layers._keras_mask`).
"""

from companion.keras._tensor_side_table import TensorSideTable

_LOGITS = TensorSideTable()

get_keras_logits = _LOGITS.get  # the logits a tensor was computed from by a sigmoid/softmax, or None


def set_keras_logits(output, logits):
    """Records that ``output`` is a sigmoid/softmax of ``logits``; returns ``output``."""
    _LOGITS.set(output, logits)
    return output

"""The logits behind a Keras sigmoid or softmax output, for the cross-entropies.

Keras 3 on TF stores them as a ``_keras_logits`` attribute on the output of
``keras.activations.sigmoid``/``softmax`` (and so of ``Dense(activation="sigmoid")``, the
``Activation`` and ``Softmax`` layers, ``keras.ops.sigmoid``/``softmax``); the binary,
categorical and sparse categorical cross-entropies then compute from those logits, as with
``from_logits=True``. companion keeps them in a table keyed by the output tensor (dropped
with it), as it keeps Keras masks (`companion.keras.layers._keras_mask`).
"""

import weakref

_LOGITS = {}


def get_keras_logits(tensor):
    """The logits ``tensor`` was computed from by a Keras sigmoid/softmax, or None."""
    entry = _LOGITS.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None
    return entry[1]


def set_keras_logits(output, logits):
    """Records that ``output`` is a sigmoid/softmax of ``logits``; returns ``output``."""
    key = id(output)
    try:
        ref = weakref.ref(output, lambda _, key=key: _LOGITS.pop(key, None))
    except TypeError:  # not a Tensor: nothing to attach to
        return output
    _LOGITS[key] = (ref, logits)
    return output

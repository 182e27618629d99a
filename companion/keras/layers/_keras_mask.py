"""The Keras mask carried by a tensor: which timesteps of a sequence are real (True) or padding.

Keras 3 stores it as a ``_keras_mask`` attribute on the tensor; companion keeps it in a
table keyed by the tensor (dropped when the tensor is), read with `get_keras_mask`. A
layer's output carries the mask its ``compute_mask`` returns; ops outside layers make
new tensors without one, as in Keras.
"""

import weakref

_MASKS = {}


def get_keras_mask(tensor):
    """The mask attached to ``tensor``, or None."""
    entry = _MASKS.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None
    return entry[1]


def set_keras_mask(tensor, mask):
    """Attaches ``mask`` to ``tensor`` (None removes it); other values are left alone."""
    key = id(tensor)
    if mask is None:
        _MASKS.pop(key, None)
        return
    try:
        ref = weakref.ref(tensor, lambda _, key=key: _MASKS.pop(key, None))
    except TypeError:  # not a Tensor (e.g. a Python number): nothing to attach to
        return
    _MASKS[key] = (ref, mask)

"""A table of values attached to tensors, dropped with them.

Keras 3 on TF sets private attributes on tensors (``_keras_mask``, ``_keras_logits``);
companion's tensors have slots, so each such attribute is a `TensorSideTable` keyed by the
tensor's id. An entry holds a weak reference to its tensor: it goes when the tensor does,
and a later tensor that reuses the id never sees it.
"""

import weakref


class TensorSideTable:
    """Values attached to tensors: `get`, `set` (None removes)."""

    def __init__(self):
        self._entries = {}

    def get(self, tensor):
        """The value attached to ``tensor``, or None."""
        entry = self._entries.get(id(tensor))
        if entry is None or entry[0]() is not tensor:
            return None
        return entry[1]

    def set(self, tensor, value):
        """Attaches ``value`` to ``tensor`` (None removes it). Objects that cannot be weakly
        referenced (a Python number) are left alone: there is nothing to attach to."""
        key = id(tensor)
        if value is None:
            self._entries.pop(key, None)
            return
        try:
            ref = weakref.ref(tensor, lambda _, key=key: self._entries.pop(key, None))
        except TypeError:
            return
        self._entries[key] = (ref, value)

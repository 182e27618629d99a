"""``companion.keras.preprocessing``: the Keras 2 names that Keras 3 keeps (``sequence.pad_sequences``)."""

from companion.keras.preprocessing import sequence

__all__ = ["sequence"]

"""``companion.keras.preprocessing.sequence``: `pad_sequences` under its Keras 2 path."""

from companion.keras.utils._pad_sequences import pad_sequences

__all__ = ["pad_sequences"]

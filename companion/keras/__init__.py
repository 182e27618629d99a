"""``companion.keras``: TensorFlow's Keras API (so far its ``datasets`` loaders; more in issue 4)."""

from companion.keras import datasets

__all__ = ["datasets"]

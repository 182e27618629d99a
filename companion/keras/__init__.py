"""``companion.keras``: TensorFlow's Keras API (datasets, losses, metrics, optimizers so far)."""

from companion.keras import datasets, losses, metrics, optimizers

__all__ = ["datasets", "losses", "metrics", "optimizers"]

"""``companion.keras``: TensorFlow's Keras API (layers, losses, metrics, optimizers, datasets, ...)."""

from companion.keras import (
    activations,
    datasets,
    initializers,
    layers,
    losses,
    metrics,
    optimizers,
    regularizers,
)

__all__ = ["activations", "datasets", "initializers", "layers", "losses", "metrics", "optimizers",
           "regularizers"]

"""``companion.keras``: TensorFlow's Keras API (layers, losses, metrics, optimizers, datasets, ...)."""

from companion.keras import (
    activations,
    backend,
    callbacks,
    config,
    constraints,
    datasets,
    initializers,
    layers,
    losses,
    metrics,
    mixed_precision,
    models,
    optimizers,
    preprocessing,
    random,
    regularizers,
    saving,
    utils,
)
from companion.keras._functional._input_layer import Input
from companion.keras.models import Model, Sequential

__all__ = ["Input", "Model", "Sequential", "activations", "backend", "callbacks", "config", "constraints",
           "datasets", "initializers", "layers", "losses", "metrics", "mixed_precision", "models",
           "optimizers", "preprocessing", "random", "regularizers", "saving", "utils"]

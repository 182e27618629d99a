"""``companion.keras``: TensorFlow's Keras API (layers, losses, metrics, optimizers, datasets, ...)."""

import importlib

from companion._missing import missing_attribute
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
from companion.keras._dtype_policy import DTypePolicy
from companion.keras._functional._input_layer import Input
from companion.keras.backend._variable import KerasVariable as Variable
from companion.keras.initializers import Initializer
from companion.keras.layers import InputSpec, Layer
from companion.keras.losses import Loss
from companion.keras.metrics import Metric
from companion.keras.models import Model, Sequential
from companion.keras.optimizers import Optimizer
from companion.keras.regularizers import Regularizer

__all__ = ["DTypePolicy", "Initializer", "Input", "InputSpec", "Layer", "Loss", "Metric", "Model",
           "Optimizer", "Regularizer", "Sequential", "Variable", "activations", "backend", "callbacks",
           "config", "constraints", "datasets", "initializers", "layers", "losses", "metrics",
           "mixed_precision", "models", "ops", "optimizers", "preprocessing", "random", "regularizers",
           "saving", "utils"]


def __getattr__(name):
    """``keras.ops`` (341 ops, about 40 ms to define) is imported on first use, not with Keras."""
    if name == "ops":
        return importlib.import_module("companion.keras.ops")  # sets the attribute: called once
    raise missing_attribute("companion.keras", name, __all__)

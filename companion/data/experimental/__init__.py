"""``companion.data.experimental``: AUTOTUNE, save/load, cardinality and the option classes (TF names)."""

from companion.data._autotune import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from companion.data._options import (
    AutoShardPolicy,
    AutotuneOptions,
    DistributeOptions,
    OptimizationOptions,
    ThreadingOptions,
)
from companion.data._save import load, save


def cardinality(dataset):
    """``dataset.cardinality()`` (the older function form).

    Example:
        >>> import companion as tf
        >>> int(tf.data.experimental.cardinality(tf.data.Dataset.range(3)))
        3
    """
    return dataset.cardinality()


__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "AutoShardPolicy", "AutotuneOptions",
           "DistributeOptions", "OptimizationOptions", "ThreadingOptions", "cardinality", "load", "save"]

"""``fit(class_weight=...)``: per-class weights turned into per-example ``sample_weight``, as Keras 3 does.

The class of an example is its label rounded to an integer (``(n,)`` or ``(n, 1)``
labels), or the argmax of a one-hot ``(n, classes)`` label. A class missing from the
dict weighs 1. Class weights apply to the training data only (not to validation data),
and cannot be combined with ``sample_weight``.
"""

import numpy as np

from companion._core._convert import constant
from companion._ops._array import squeeze
from companion._ops._math import cast
from companion._ops._math import round as round_op
from companion._ops._reduce import argmax
from companion._ops._select import gather
from companion.keras.layers._tracking import map_structure


def class_weight_to_sample_weight(y, class_weight):
    """The per-example weights of labels ``y`` (arrays) under ``class_weight``.

    Example:
        >>> import numpy as np
        >>> from companion.keras.models._class_weight import class_weight_to_sample_weight
        >>> class_weight_to_sample_weight(np.array([0, 2, 1, 2]), {0: 1.0, 2: 0.5})
        array([1. , 0.5, 1. , 0.5], dtype=float32)
    """
    labels = np.asarray(y)
    if labels.ndim > 1:
        labels = np.argmax(labels, axis=-1) if labels.shape[-1] != 1 else np.squeeze(labels, axis=-1)
    classes = np.round(labels).astype(np.int32)
    return np.array([float(class_weight.get(int(c), 1.0)) for c in classes], dtype=np.float32)


def checked(class_weight, sample_weight, y, caller):
    """Validates ``class_weight`` against the other arguments; returns it as ``{int: float}``.

    Raises:
        ValueError: ``sample_weight`` is given too, or ``y`` has several outputs.
        TypeError: ``class_weight`` is not a dict.
    """
    if not isinstance(class_weight, dict):
        raise TypeError(f"{caller}: `class_weight` must be a dict mapping class indices to weights, e.g. "
                        f"{{0: 1.0, 1: 5.0}}. Received: class_weight={class_weight!r}")
    if sample_weight is not None:
        raise ValueError(f"{caller}: you cannot pass `class_weight` and `sample_weight` at the same time "
                         "(Keras turns class_weight into sample weights). Multiply the class weights "
                         "into your sample weights and pass only `sample_weight`.")
    if isinstance(y, dict) or (isinstance(y, (list, tuple)) and len(y) > 1
                               and all(hasattr(v, "shape") for v in y)):
        raise ValueError(f"{caller}: `class_weight` is only supported for models with a single output. "
                         f"Pass per-output weights as `sample_weight` instead. Received y of type "
                         f"{type(y).__name__}.")
    return {int(k): float(v) for k, v in class_weight.items()}


def weighted_dataset(dataset, class_weight, caller="fit"):
    """``dataset`` (of ``(x, y)`` batches) mapped to ``(x, y, class weights of y)``.

    Classes above the largest key of ``class_weight`` have no weight (an
    ``InvalidArgumentError`` from the gather, as in Keras); smaller missing ones weigh 1.
    """

    table = constant(np.array([class_weight.get(c, 1.0) for c in range(max(class_weight) + 1)],
                              dtype=np.float32))

    def add_weights(*element):
        if len(element) != 2:
            raise ValueError(f"{caller}: with `class_weight`, the dataset must yield (x, y) pairs; it "
                             f"yields tuples of {len(element)}. A dataset that yields sample weights "
                             "cannot also use class_weight.")
        x, y = element
        if isinstance(y, (dict, list, tuple)):
            raise ValueError(f"{caller}: `class_weight` is only supported for models with a single "
                             "output.")
        if y.shape.rank >= 2:
            classes = argmax(y, axis=-1, output_type="int32") if y.shape[-1] != 1 else cast(
                round_op(squeeze(y, axis=-1)), "int32")
        else:
            classes = cast(round_op(y), "int32")
        return x, y, gather(table, classes)

    return dataset.map(add_weights)


def apply(x, y, sample_weight, class_weight, is_dataset, caller="fit"):
    """``(x, y, sample_weight)`` with ``class_weight`` folded into the sample weights."""
    if class_weight is None:
        return x, y, sample_weight
    class_weight = checked(class_weight, sample_weight, y, caller)
    if is_dataset:
        return weighted_dataset(x, class_weight, caller), y, sample_weight
    single = y[0] if isinstance(y, (list, tuple)) and len(y) == 1 else y
    return x, y, class_weight_to_sample_weight(map_structure(np.asarray, single), class_weight)

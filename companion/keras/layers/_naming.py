"""Layer names: Keras's snake_case class names made unique per name (``dense``, ``dense_1``)."""

import re

_NAME_COUNTS = {}


def reset_name_counts():
    """Forgets the names given so far, so the next Dense is ``dense`` again (``clear_session``)."""
    _NAME_COUNTS.clear()


def to_snake_case(name):
    """Keras's class-name-to-layer-name rule: ``BatchNormalization`` → ``batch_normalization``."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(class_name):
    """The next free name for a layer of class ``class_name``."""
    base = to_snake_case(class_name)
    count = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = count + 1
    return base if count == 0 else f"{base}_{count}"

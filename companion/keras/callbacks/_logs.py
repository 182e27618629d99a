"""Log values as callbacks see them: tensors turned into NumPy arrays, scalars into Python numbers."""

import numpy as np


def to_python(logs):
    """A new dict of ``logs`` (None → ``{}``) with tensors converted, as Keras 3's ``pythonify_logs``
    gives callbacks: keys sorted, and a dict-valued entry (``compile_metrics`` from a custom step)
    opened into its entries."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(to_python(value))
        else:
            result[key] = _as_float(_convert(value))
    return result


def convert(logs):
    """A new dict of ``logs`` with tensors converted, keys and nesting kept (the raw logs a loop
    hands its callbacks, which open and sort them with `to_python`)."""
    return {key: _convert(value) for key, value in (logs or {}).items()}


def _as_float(value):
    """A number as a Python float, as ``pythonify_logs`` makes every log value it can."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def _convert(value):
    if isinstance(value, dict):
        return {key: _convert(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_convert(item) for item in value)
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
        return value.item()
    return value

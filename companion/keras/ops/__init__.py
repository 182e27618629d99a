"""``companion.keras.ops``: Keras 3's backend-agnostic ops (``keras.ops``) returning companion Tensors.

NumPy-style functions with Keras's dtype rules (``ops.mean`` of ints is float32, ``int32 + 1.5`` is
float32), ``keras.ops.nn``/``image``/``linalg``/``math`` functions, and core control flow. Each runs
eagerly, inside `companion.function` and under `GradientTape`, and accepts Variables.

Example:
    >>> import companion as tf
    >>> from companion.keras import ops
    >>> print(ops.mean(ops.convert_to_tensor([[1, 2], [3, 4]]), axis=1, keepdims=True))
    companion.Tensor(
    [[1.5]
     [3.5]], shape=(2, 1), dtype=float32)
"""

from companion.keras.ops import _arrays, _core, _einops, _linalg, _nn, _numpy


def _collect(*modules):
    table = {}
    for module in modules:
        table.update(module.OPS if hasattr(module, "OPS") else {})
        table.update({name: getattr(module, name) for name in getattr(module, "__all__", ())})
    return table


_ALL = _collect(_numpy, _arrays, _core, _linalg, _nn, _einops)
globals().update(_ALL)

from companion.keras.ops import image, linalg, nn, numpy  # noqa: E402, F401 - subnamespaces, after the table

__all__ = sorted([*_ALL, "image", "linalg", "nn", "numpy"])

"""``companion.keras.ops.linalg``: Keras 3's linear-algebra functions (``keras.ops.linalg``)."""

from companion.keras.ops import _core, _linalg

_TABLE = {name: fn for name, fn in _linalg.OPS.items() if name != "slogdet"}
_TABLE["jvp"] = _core.jvp  # Keras lists it here too
globals().update(_TABLE)

__all__ = sorted(_TABLE)

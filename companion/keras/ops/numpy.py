"""``companion.keras.ops.numpy``: the NumPy-style functions of `companion.keras.ops` (``keras.ops.numpy``)."""

from companion.keras.ops import _arrays, _core, _linalg, _numpy

_OUTSIDE = {"cdist", "logsumexp", "view_as_complex", "view_as_real"}  # in keras.ops, not keras.ops.numpy
_TABLE = {name: fn for name, fn in _numpy.OPS.items() if name not in _OUTSIDE}
_TABLE.update({name: getattr(_arrays, name) for name in _arrays.__all__})
_TABLE["slogdet"] = _linalg.OPS["slogdet"]
_TABLE["vectorize"] = _core.vectorize
globals().update(_TABLE)

__all__ = sorted(_TABLE)

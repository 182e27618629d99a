"""``companion.keras.ops.nn``: activations, losses, convolutions, pooling and normalisations
(``keras.ops.nn``)."""

from companion.keras.ops import _nn

_TABLE = dict(_nn.OPS)
_TABLE.update({name: getattr(_nn, name) for name in _nn.__all__})
globals().update(_TABLE)

__all__ = sorted(_TABLE)

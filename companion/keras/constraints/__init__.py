"""``companion.keras.constraints``: weight projections applied after each optimizer update."""

from companion.keras.constraints._constraints import Constraint, MaxNorm, MinMaxNorm, NonNeg, UnitNorm
from companion.keras.constraints._get import deserialize, get, serialize

max_norm = MaxNorm
min_max_norm = MinMaxNorm
non_neg = NonNeg
unit_norm = UnitNorm

__all__ = ["Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm", "deserialize", "get", "max_norm",
           "min_max_norm", "non_neg", "serialize", "unit_norm"]

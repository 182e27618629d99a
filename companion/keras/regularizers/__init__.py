"""``companion.keras.regularizers``: weight penalties (L1, L2, L1L2, OrthogonalRegularizer) and `get`."""

from companion.keras.regularizers._get import deserialize, get, serialize
from companion.keras.regularizers._orthogonal import OrthogonalRegularizer
from companion.keras.regularizers._regularizers import L1, L1L2, L2, Regularizer, l1_l2

l1 = L1
l2 = L2

orthogonal_regularizer = OrthogonalRegularizer

__all__ = ["L1", "L1L2", "L2", "OrthogonalRegularizer", "Regularizer", "deserialize", "get", "l1", "l1_l2",
           "l2", "orthogonal_regularizer", "serialize"]

"""``companion.keras.random``: Keras 3's random functions and `SeedGenerator` (TF's numbers)."""

from companion.keras.random._ops import dropout, normal, randint, shuffle, truncated_normal, uniform
from companion.keras.random._seed_generator import SeedGenerator

__all__ = ["SeedGenerator", "dropout", "normal", "randint", "shuffle", "truncated_normal", "uniform"]

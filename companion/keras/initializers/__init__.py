"""``companion.keras.initializers``: weight initializers (Glorot, He, random, orthogonal, ...), `get`."""

from companion.keras.initializers._get import deserialize, get, serialize
from companion.keras.initializers._identity import Identity
from companion.keras.initializers._initializer import (
    Constant,
    Initializer,
    Ones,
    RandomNormal,
    RandomUniform,
    TruncatedNormal,
    Zeros,
)
from companion.keras.initializers._orthogonal import Orthogonal
from companion.keras.initializers._variance_scaling import (
    GlorotNormal,
    GlorotUniform,
    HeNormal,
    HeUniform,
    LecunNormal,
    LecunUniform,
    VarianceScaling,
)

constant = Constant
glorot_normal = GlorotNormal
glorot_uniform = GlorotUniform
he_normal = HeNormal
he_uniform = HeUniform
identity = Identity
IdentityInitializer = Identity
lecun_normal = LecunNormal
lecun_uniform = LecunUniform
OrthogonalInitializer = Orthogonal
variance_scaling = VarianceScaling
ones = Ones
orthogonal = Orthogonal
random_normal = RandomNormal
random_uniform = RandomUniform
truncated_normal = TruncatedNormal
zeros = Zeros

__all__ = [
    "Constant", "GlorotNormal", "GlorotUniform", "HeNormal", "HeUniform", "Identity", "IdentityInitializer",
    "Initializer", "LecunNormal", "LecunUniform", "Ones", "Orthogonal", "OrthogonalInitializer",
    "RandomNormal", "RandomUniform", "TruncatedNormal", "VarianceScaling", "Zeros", "constant",
    "deserialize", "get", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "identity",
    "lecun_normal", "lecun_uniform", "ones", "orthogonal", "random_normal", "random_uniform", "serialize",
    "truncated_normal", "variance_scaling", "zeros",
]

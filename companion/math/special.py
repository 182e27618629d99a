"""``companion.math.special``: TensorFlow's ``tf.math.special`` (Bessel functions and integrals)."""

from companion._ops._special import SPECIAL as __all__  # noqa: F401
from companion._ops._special import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, expint, spence  # noqa: F401

"""``companion.debugging``: TensorFlow's ``tf.debugging`` checks (assertions and NaN/Inf checks)."""

from companion._ops._debugging import *  # noqa: F403
from companion._ops._debugging import __all__ as __all__

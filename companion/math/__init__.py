"""``companion.math``: TensorFlow's ``tf.math``: element-wise math, reductions and a few helpers."""

from companion._ops import _counting, _sequence_checks, _special
from companion._ops._counting import *  # noqa: F403
from companion._ops._math import *  # noqa: F403
from companion._ops._math import __all__ as _math_all
from companion._ops._math import accumulate_n, angle, digamma, log_sigmoid, nextafter, polyval, rint  # noqa: F401
from companion._ops._nn_activations import log_softmax, softmax  # noqa: F401
from companion._ops._nn_normalization import l2_normalize  # noqa: F401
from companion._ops._reduce import *  # noqa: F403
from companion._ops._reduce import __all__ as _reduce_all
from companion._ops._reduce import cumulative_logsumexp  # noqa: F401
from companion._ops._safe_math import (  # noqa: F401
    divide_no_nan,
    multiply_no_nan,
    reduce_euclidean_norm,
    xdivy,
    xlogy,
)
from companion._ops._sequence_checks import *  # noqa: F403
from companion._ops._sort import approx_max_k, approx_min_k, top_k  # noqa: F401
from companion._ops._special import *  # noqa: F403
from companion.math import special  # noqa: F401

__all__ = sorted({*_math_all, *_reduce_all, *_counting.__all__, *_special.__all__, *_sequence_checks.__all__,
                  "accumulate_n", "angle", "nextafter", "special", "l2_normalize", "log_softmax", "softmax",
                  "top_k", "approx_max_k", "approx_min_k",
                  "cumulative_logsumexp", "digamma", "divide_no_nan", "log_sigmoid",
                  "multiply_no_nan", "polyval", "reduce_euclidean_norm", "rint", "xdivy", "xlogy"})

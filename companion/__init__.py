"""companion: TensorFlow 2's custom- and distributed-training API on a JAX/XLA core.

``import companion as tf`` gives tensors, Variables, ``GradientTape`` and the ops of the
course with TensorFlow's names, dtype rules and reprs.
"""

import jax as _jax

_jax.config.update("jax_enable_x64", True)  # int64/float64/uint32 exist, as in TensorFlow

from companion import _operators  # noqa: E402
from companion._context import executing_eagerly  # noqa: E402
from companion._convert import constant, convert_to_tensor, is_tensor  # noqa: E402
from companion._dtypes import (  # noqa: E402
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64,
    half, int8, int16, int32, int64, string, uint8, uint16, uint32, uint64)
from companion._errors import InvalidArgumentError  # noqa: E402
from companion._gradient_tape import GradientTape, UnconnectedGradients  # noqa: E402
from companion._ops._array import *  # noqa: E402,F401,F403
from companion._ops._creation import (  # noqa: E402
    eye, fill, identity, linspace, ones, ones_like, range, zeros, zeros_like)
from companion._ops._linalg import *  # noqa: E402,F401,F403
from companion._ops._math import (  # noqa: E402
    abs, add, add_n, cast, clip_by_value, cos, divide, equal, exp, floor, floordiv, greater,
    greater_equal, less, less_equal, log, logical_and, logical_not, logical_or, maximum,
    minimum, mod, multiply, negative, not_equal, pow, round, rsqrt, sigmoid, sign, sin,
    softplus, sqrt, square, subtract, tanh, truediv)
from companion._ops._nn import *  # noqa: E402,F401,F403
from companion._ops._reduce import *  # noqa: E402,F401,F403
from companion._ops._sort import *  # noqa: E402,F401,F403
from companion._shape import TensorShape  # noqa: E402
from companion._tensor import EagerTensor, Tensor  # noqa: E402
from companion._variable import Variable  # noqa: E402

_operators.install(Tensor)
_operators.install(Variable)

__version__ = "0.1.0"

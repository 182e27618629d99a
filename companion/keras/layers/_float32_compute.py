"""`computes_in_float32`: a normalization layer's call in float32 under mixed precision (Keras 3).

Statistics of float16 values overflow and lose precision, so Keras 3's batch, layer and group
normalization compute in float32 whatever the policy: half-precision inputs are cast up, the
layer's float32 weights are read as they are (no autocast), and the result is cast to the layer's
compute dtype. A layer whose compute and variable dtypes agree runs its call unchanged.
"""

import functools

from companion._core import _dtypes
from companion._core._context import state
from companion._core._convert import as_input
from companion._ops._math import cast

_HALF = (_dtypes.float16, _dtypes.bfloat16)


def computes_in_float32(call):
    """Decorates a layer's ``call(self, inputs, ...)`` to compute in float32 when the layer is mixed."""

    @functools.wraps(call)
    def wrapped(self, inputs, *args, **kwargs):
        if self._dtype == self._variable_dtype:
            return call(self, inputs, *args, **kwargs)
        inputs = as_input(inputs)
        if inputs.dtype in _HALF:
            inputs = cast(inputs, _dtypes.float32)
        previous, state.autocast = state.autocast, None
        try:
            outputs = call(self, inputs, *args, **kwargs)
        finally:
            state.autocast = previous
        return cast(outputs, self._dtype)

    return wrapped

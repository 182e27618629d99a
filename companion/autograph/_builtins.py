"""Python builtins AutoGraph converts inside a `function`: ``int(t)`` and ``float(t)`` of a tensor.

TF's AutoGraph turns ``int(x)`` of a tensor into ``cast(x, int32)`` and ``float(x)`` into
``cast(x, float32)`` (any shape; floats truncate towards zero), so they give tensors inside a
function where Python would need a concrete value. Other calls are left to Python.
"""

from companion._core._context import state
from companion._core._tensor import Tensor
from companion._ops._math import cast

NOT_CONVERTED = object()


def converted_builtin(f, args, kwargs):
    """``int``/``float`` of one tensor while tracing, as a cast; else `NOT_CONVERTED`."""
    if f is not int and f is not float:
        return NOT_CONVERTED
    if len(args) != 1 or kwargs:
        return NOT_CONVERTED

    value = args[0]
    if not state.staging or not (isinstance(value, Tensor) or getattr(value, "_is_variable", False)):
        return NOT_CONVERTED

    return cast(value, "int32" if f is int else "float32")

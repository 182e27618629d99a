"""`tf.debugging.enable_check_numerics`: while on, every float output of every op is checked for
NaN and infinity, and the first op that makes one raises `InvalidArgumentError` naming the op.

Eagerly the check runs when the op runs; inside a compiled `function` it runs on the host when the
program runs (a callback, as `check_numerics`), so the call stops with the same error. A
`GradientTape`'s gradient is one op (its compiled replay, ``tape_vjp``), checked as a whole: the
message names that op where TF names the gradient op inside it (e.g. ``SqrtGrad``).
"""

import numpy as np
from jax.experimental import io_callback

from companion._core import _callback_errors
from companion._core._context import flags
from companion._core._errors import RuntimeCheckError


def enable():
    """Turns the checks on (`companion.debugging.enable_check_numerics`)."""
    flags.check_numerics = True


def disable():
    """Turns the checks off; a no-op when they are off."""
    flags.check_numerics = False


def check_outputs(op_name, outputs, inputs, traced):
    """Checks each float output of the op ``op_name``; ``traced``: inside a compiled program."""
    for index, tensor in enumerate(outputs):
        if not _is_float(tensor):
            continue
        check = _checker(op_name, index, len(outputs), inputs)
        if traced:
            io_callback(_remembering(check), None, tensor._value)
        else:
            check(np.asarray(tensor._value))


def _is_float(tensor):
    kind = np.dtype(tensor._value.dtype).kind if hasattr(tensor._value, "dtype") else ""
    return kind in "fc" or str(getattr(tensor._value, "dtype", "")) == "bfloat16"


def _checker(op_name, index, count, inputs):
    def check(array):
        array = np.asarray(array)
        counts = {"-Inf": int(np.sum(np.isneginf(array.real))), "+Inf": int(np.sum(np.isposinf(array.real))),
                  "NaN": int(np.sum(np.isnan(array)))}
        if not any(counts.values()):
            return
        found = " and ".join(kind for kind, n in counts.items() if n)
        details = "".join(f"\n  # of {kind} elements: {n}" for kind, n in counts.items() if n)
        shapes = ", ".join(str(tuple(np.shape(getattr(x, "_value", x)))) for x in inputs)
        where = " (a GradientTape's gradient)" if op_name.startswith("tape_") else ""
        raise RuntimeCheckError(
            f"Detected Infinity or NaN in output {index} of op \"{op_name}\"{where} "
            f"(# of outputs: {count}).\n"
            f"  dtype: {array.dtype}\n  shape: {array.shape}{details}\n  input shapes: [{shapes}]\n"
            f" : Tensor had {found} values. Find where the value leaves its valid range (log of 0, "
            "division by 0, overflow), or call tf.debugging.disable_check_numerics() to stop checking.")
    return check


def _remembering(check):
    def on_host(array):
        try:
            check(array)
        except RuntimeCheckError as error:
            _callback_errors.remember(error)  # the call re-raises it (XLA wraps a callback's error)
            raise
    return on_host

"""Tensors that escaped the staged block they were made in: TensorFlow's ``InaccessibleTensorError``.

A loop over a tensor (or a branch on one) inside a `companion.function` is staged as a block of
its own. A tensor computed in that block exists only while the block runs; storing it in a
Python list (``leaked.append(i * 2)``) and using it after the loop reaches a value of a trace
that has ended. JAX notices this only when the program runs, as an ``UnexpectedTracerError``;
companion checks the traced program as soon as it is traced and raises TF's error instead.
"""

import jax

from companion._core import _out_of_scope
from companion._core._errors import InaccessibleTensorError

try:
    from jax._src import core
except ImportError:  # pragma: no cover - a JAX without the private module
    core = None


def check_no_leaked_tensors(staged, name):
    """Raises `InaccessibleTensorError` if the top-level program ``staged`` captured a tensor of
    a block traced inside it (a loop or branch body), which would fail when the program runs."""
    if not _outside_jax_transformations():
        return  # traced under a JAX transformation: its tracers are legitimate constants
    for const in staged.closed.consts:
        if isinstance(const, jax.core.Tracer):
            if _out_of_scope.of_ended_function(const):  # made by another function call: TF's TypeError
                aval = const.aval
                raise _out_of_scope.out_of_scope_error(
                    f"The tensor (shape={tuple(aval.shape)}, dtype={aval.dtype}) used by companion.function "
                    f"{name!r}")
            raise leaked_tensor_error(const, name)


def leaked_tensor_error(value, name):
    """The error for ``value``, a tensor made inside a staged loop or branch of function ``name``."""
    aval = getattr(value, "aval", None)
    what = f"shape={tuple(aval.shape)}, dtype={aval.dtype}" if aval is not None else repr(value)
    return InaccessibleTensorError(
        f"companion.function {name!r} used a tensor ({what}) outside the loop or branch that "
        "computed it. A loop over a tensor (or an `if` on one) runs inside the compiled program as "
        "a block of its own, and the tensors made in one iteration exist only inside that block: "
        "keeping one in a Python list (`values.append(x)`) and reading it after the loop cannot "
        "work. Carry the value out as a loop variable (assign it to a name set before the loop and "
        "use that name after it), or collect one value per iteration in a companion.TensorArray "
        "(`ta = ta.write(i, x)` in the loop, `ta.stack()` after it).")


def _outside_jax_transformations():
    if core is None:  # pragma: no cover - a JAX without the private module: assume top level
        return True
    return core.trace_state_clean()

"""Tracing one block of converted code (a branch, a loop body, a loop test) into a jaxpr.

A block reads and writes AutoGraph *state* (the local variables the statement modifies)
and may assign companion Variables. `trace_block` runs the Python block exactly once under
``jax.make_jaxpr``, restores every Variable it wrote, and returns a `Block` that can be
evaluated inside ``lax.cond``/``lax.while_loop`` with chosen values for those Variables.
"""

import jax

from companion._core._context import state
from companion._core._tensor import Tensor
from companion._staging import stage


class Block:
    """A traced block: its `Staged` program, output structure and the Variables it wrote."""

    def __init__(self, staged, out_kinds):
        self.staged = staged
        self.closed = staged.closed
        self.written = staged.written
        self.n_state = staged.n_out  # number of flat state outputs before the written values
        self.out_kinds = out_kinds

    def variable_slots(self, variables, before):
        """Positions of the constants that stand for ``variables`` (their values before the block)."""
        trace = state.traces[-1]
        slots = []
        for var in variables:
            marks = {id(before[id(var)]), id(trace.aliases.get(id(var)))}
            slots.append([i for i, c in enumerate(self.closed.consts) if id(c) in marks])
        return slots

    def evaluate(self, args, replaced=None):
        """Runs the block's program; ``replaced`` maps constant positions to new values."""
        consts = list(self.closed.consts)
        for slot, value in (replaced or {}).items():
            consts[slot] = value
        return jax.core.eval_jaxpr(self.closed.jaxpr, consts, *args)


def trace_block(run, in_avals, flatten_out):
    """Traces ``run(*arrays)`` (which returns the block's state) into a `Block`, inside the
    enclosing trace (`companion._staging.stage`).

    ``flatten_out(result)`` turns the returned state into ``(arrays, kinds)``.
    """
    info = {}

    def traced(*arrays):
        arrays_out, info["kinds"] = flatten_out(run(*arrays))
        return arrays_out

    staged = stage(traced, in_avals, state.traces[-1])
    return Block(staged, info["kinds"])


def values_of(variables):
    """The current (possibly traced) stored values of ``variables``."""
    return [var._value if not isinstance(var._v, jax.core.Tracer) else var._v for var in variables]


def as_tensor_value(x):
    """The array behind a Tensor or Variable, else None."""
    if isinstance(x, Tensor):
        return x._value
    if getattr(x, "_is_variable", False):
        return x._value
    return None

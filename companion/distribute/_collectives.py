"""Cross-replica reductions inside a replica: XLA collectives over the strategy's mesh axis."""

import jax

from companion._core._convert import as_input
from companion._core._nest import map_structure
from companion._core._op import op
from companion.distribute._reduce_op import ReduceOp


@op("all_reduce", static=("axis_name", "mean"))
def _all_reduce(x, axis_name, mean):
    return jax.lax.pmean(x, axis_name) if mean else jax.lax.psum(x, axis_name)


def all_reduce(reduce_op, value, axis_name):
    """``value`` (a tensor or a structure of them) reduced over ``axis_name`` (None: one replica)."""
    mean = ReduceOp.from_any(reduce_op) is ReduceOp.MEAN

    def one(x):
        x = as_input(x)
        if axis_name is None or jax.lax.axis_size(axis_name) == 1:
            return x
        return _all_reduce(x, axis_name=axis_name, mean=mean)

    return map_structure(one, value)

"""`Op`: one operation defined once as a pure JAX function, run eagerly, traced, or recorded.

Applying an op (see DESIGN.md, principle 2):
1. unwrap the input Tensors/Variables to arrays and run the pure function — through a
   cached ``jax.jit`` when eager (one C++ dispatch, no per-call tracing), directly when
   a staging interpreter (`companion.function`) is tracing;
2. if any `GradientTape` is recording, hand it one record (op, static params, inputs,
   outputs); the tape decides whether an input is watched.
"""

import jax

from companion._context import state
from companion._tensor import Tensor


class Op:
    """A named pure function on ``jax.Array``s; keyword arguments are static parameters.

    Static parameters (axes, shapes, flags) must be hashable: they key the compile caches
    of eager dispatch and of gradient replay.
    """

    __slots__ = ("name", "fn", "_eager")

    def __init__(self, name, fn, static=(), jit=True):
        self.name = name
        self.fn = fn
        self._eager = jax.jit(fn, static_argnames=static) if jit else fn

    def __call__(self, *inputs, **params):
        """Applies the op to Tensors/Variables; returns a Tensor or a tuple of Tensors."""
        return self.apply(inputs, params)

    def apply(self, inputs, params, wrap=Tensor):
        """`__call__` with the output class chosen by ``wrap`` (a Tensor subclass)."""
        values = [x._value for x in inputs]
        out = (self.fn if state.staging else self._eager)(*values, **params)
        if isinstance(out, (tuple, list)):
            outputs = tuple(wrap(o) for o in out)
            result = outputs
        else:
            result = wrap(out)
            outputs = (result,)
        if state.tapes:
            for tape in state.tapes:
                tape._record(self, params, inputs, outputs)
        return result

    def __repr__(self):
        return f"<Op {self.name}>"


def op(name=None, static=(), jit=True):
    """Decorator turning a pure JAX function into an `Op`.

    Example:
        >>> import jax.numpy as jnp
        >>> from companion._op import op
        >>> @op("double")
        ... def double(x):
        ...     return x * 2
    """

    def wrap(fn):
        return Op(name or fn.__name__.lstrip("_"), fn, static=static, jit=jit)

    return wrap

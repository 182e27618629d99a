"""`Op`: one operation defined once as a pure JAX function, run eagerly, traced, or recorded.

Applying an op (see DESIGN.md, principle 2):
1. unwrap the input Tensors/Variables to arrays and run the pure function — through a
   cached ``jax.jit`` when eager (one C++ dispatch, no per-call tracing), directly when
   a staging interpreter (`companion.function`) is tracing;
2. if any `GradientTape` is recording, hand it one record (op, static params, inputs,
   outputs); the tape decides whether an input is watched.

While a TF1 graph is being built (`companion._core._graph_mode.building`), nothing runs: the
application is recorded as a node of that graph and a symbolic tensor comes back.
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _check_numerics, _convert, _deferred, _graph_mode, _out_of_scope, _tensor_names
from companion._core._context import flags, state
from companion._core._tensor import Tensor


class Op:
    """A named pure function on ``jax.Array``s; keyword arguments are static parameters.

    Static parameters (axes, shapes, flags) must be hashable: they key the compile caches
    of eager dispatch and of gradient replay.
    """

    __slots__ = ("name", "fn", "_eager", "string_fn", "deferrable", "differentiable", "output_deps")

    def __init__(self, name, fn, static=(), jit=True):
        self.name = name
        self.fn = fn
        self._eager = _FirstJit(self, static) if jit else fn
        self.string_fn = None  # a NumPy twin for string tensors, set by companion._ops._strings
        # a pure jitted function may wait in a deferred batch (`_deferred`); False for programs
        # with effects (a staged function's prints, Variable writes) and for un-jitted Python
        self.deferrable = jit
        # False for ops TF marks not differentiable (floor, round, ...): a tape does not connect
        # their outputs, so a target reached only through them has gradient None, as in TF. A str:
        # the TF op type of an op TF registers no gradient for at all (Lu, Unique, ...): a tape
        # records it, and a gradient whose path reaches it raises TF's LookupError (`_replay`)
        self.differentiable = True
        # None: every output depends on every input. Else, per output, the positions of the inputs
        # it uses (a gradient replay recorded by an outer tape: `_tape._dependencies`)
        self.output_deps = None

    def __call__(self, *inputs, **params):
        """Applies the op to Tensors/Variables; returns a Tensor or a tuple of Tensors."""
        return self.apply(inputs, params)

    def apply(self, inputs, params, wrap=Tensor):
        """`__call__` with the output class chosen by ``wrap`` (a Tensor subclass)."""
        if _graph_mode.building is not None:  # TF1 graph mode: record a node, run nothing
            return _graph_mode.building._record(self, inputs, params)
        if state.autocast is not None:  # inside a mixed-precision layer's call: Keras weights in its dtype
            inputs = [_convert.autocast(x) if x._is_variable else x for x in inputs]
        out = None
        if not state.staging and self.deferrable and not flags.check_numerics:  # eager: maybe deferred
            out = _deferred.run(self, [x._v if x.__class__ in _PLAIN else x._value for x in inputs], params)
        if out is None:
            values = [x._value for x in inputs]
            try:
                out = self._staged(values, params) if state.staging else self._eager(*values, **params)
            except TypeError as error:
                if isinstance(error, jax.errors.UnexpectedTracerError):  # a tensor kept from a function
                    leaked = [x for x in inputs if _out_of_scope.is_out_of_scope(x._v)]
                    if leaked:
                        raise _out_of_scope.out_of_scope_error(leaked[0]) from None
                if not any(type(v) is np.ndarray and v.dtype == object for v in values):  # strings
                    raise
                out = self._on_strings(values, params)
        if isinstance(out, (tuple, list)):
            outputs = tuple(wrap(o) for o in out)
            result = outputs
        else:
            result = wrap(out)
            outputs = (result,)
        if state.staging:  # a function's graph names its tensors (`_tensor_names`)
            _tensor_names.name_outputs(self.name, outputs, inputs)
        if flags.check_numerics:  # `debugging.enable_check_numerics`
            traced = any(o.is_traced for o in outputs)
            _check_numerics.check_outputs(self.name, outputs, inputs, traced)
        if state.tapes:
            reads = {} if len(state.tapes) > 1 else None  # nested tapes see the same Variable reads
            for tape in state.tapes:
                tape._record(self, params, inputs, outputs, reads)
        return result

    def _staged(self, values, params):
        """While tracing: ops on values known now are computed now (so shapes stay static)."""
        if any(isinstance(v, jax.core.Tracer) for v in values):
            return self.fn(*values, **params)
        with jax.ensure_compile_time_eval():
            return self.fn(*values, **params)

    def _on_strings(self, values, params):
        if self.string_fn is None:
            raise TypeError(f"{self.name} does not support string tensors. Strings can be compared, "
                            "reshaped, indexed, joined and printed, but have no arithmetic.")
        out = self.string_fn(*values, **params)
        if isinstance(out, (tuple, list)):
            return tuple(_string_or_array(o) for o in out)
        return _string_or_array(out)

    def __repr__(self):
        return f"<Op {self.name}>"


class _FirstJit:
    """An op's ``jax.jit`` made on first use, then put in its place: ``import companion`` defines
    some 300 ops and would otherwise spend tens of milliseconds wrapping ones a program never runs."""

    __slots__ = ("op", "static")

    def __init__(self, op, static):
        self.op, self.static = op, static

    def _made(self):
        jitted = self.op._eager = jax.jit(self.op.fn, static_argnames=self.static)
        return jitted

    def __call__(self, *args, **kwargs):
        return self._made()(*args, **kwargs)

    def __getattr__(self, name):  # `trace`, `lower`, ...
        return getattr(self._made(), name)


_PLAIN = {Tensor}  # classes whose stored value is read as is; Variables add themselves


def op(name=None, static=(), jit=True):
    """Decorator turning a pure JAX function into an `Op`.

    Example:
        >>> import jax.numpy as jnp
        >>> from companion._core._op import op
        >>> @op("double")
        ... def double(x):
        ...     return x * 2
    """

    def wrap(fn):
        return Op(name or fn.__name__.lstrip("_"), fn, static=static, jit=jit)

    return wrap


def _string_or_array(array):
    if isinstance(array, (bytes, str)) or np.asarray(array).dtype.kind in "OSU":
        return np.asarray(array, dtype=object)
    if isinstance(array, np.ndarray):  # a host result: a transfer, not a copy program per shape
        return _convert.to_device(array)
    return jnp.asarray(array)

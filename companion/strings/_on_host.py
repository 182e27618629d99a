"""String ops on values known only when a compiled `function` runs: deferred to the host.

Inside a trace, a string op whose inputs include a traced number (``as_string(x)``) or a
`HostString` cannot run yet (XLA has no strings). `on_host` makes such a call return a
`HostString` (text built after the program runs, from the traced arrays it needs) or, for a
numeric result (``length`` of such a string), a traced tensor computed by a host callback
(``jax.pure_callback``) inside the program. Calls on values known while tracing run at once.
"""

import functools

import jax
import numpy as np

from companion._core import _tensor_names
from companion._core._context import state
from companion._core._host_value import HostString, is_host_value
from companion._core._tensor import Tensor
from companion._staging import eager_scope

_DUMMY_TEXT = b"0"  # what a HostString holds while the result's shape and dtype are worked out


def on_host(fn, deferrable=True):
    """Wraps string op ``fn`` so that a call on run-time values is deferred to the host.

    ``deferrable=False`` (ops whose result shape depends on the text, such as ``split``): such a
    call raises a TypeError saying how to do it instead.
    """

    @functools.wraps(fn)
    def op(*args, **kwargs):
        if not state.staging:
            return fn(*args, **kwargs)
        leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_leaf)
        dynamic = [i for i, leaf in enumerate(leaves) if _is_dynamic(leaf)]
        if not dynamic:
            return fn(*args, **kwargs)
        if not deferrable:
            raise TypeError(
                f"strings.{fn.__name__} inside a function was given a value known only when the compiled "
                "program runs. Its result's shape depends on the text, which XLA cannot have (companion "
                "keeps strings on the host). Call it outside the function, eagerly, or on strings known "
                "while tracing (constants and function arguments).")
        groups = [_arrays_of(leaves[i]) for i in dynamic]
        arrays = [array for group in groups for array in group]

        def run(*values, dummy=False):
            filled, start = list(leaves), 0
            for i, group in zip(dynamic, groups):
                filled[i] = _concrete(leaves[i], values[start:start + len(group)], dummy)
                start += len(group)
            call_args, call_kwargs = jax.tree_util.tree_unflatten(tree, filled)
            return fn(*call_args, **call_kwargs)

        probe = _probe(run, arrays, fn.__name__)
        if probe.dtype.name == "string":
            text = HostString(arrays, lambda *values: np.asarray(run(*values)._value, dtype=object),
                              probe.shape.as_list())
            _tensor_names.name_values(fn.__name__, [text])
            return text
        out_type = jax.ShapeDtypeStruct(tuple(probe.shape.as_list()), probe.dtype._np)
        result = jax.pure_callback(lambda *values: np.asarray(run(*values).numpy(), probe.dtype._np),
                                   out_type, *arrays)
        return Tensor(result)

    return op


def _is_leaf(x):
    return isinstance(x, Tensor) or getattr(x, "_is_variable", False) or is_host_value(x)


def _is_dynamic(leaf):
    if is_host_value(leaf):
        return True
    if getattr(leaf, "_is_variable", False):
        return True  # read inside a trace: its value is the program's
    return isinstance(leaf, Tensor) and isinstance(leaf._value, jax.core.Tracer)


def _arrays_of(leaf):
    if is_host_value(leaf):
        return list(leaf._arrays)
    return [leaf._value]


def _concrete(leaf, values, dummy):
    if is_host_value(leaf):
        if dummy:
            return Tensor(np.full(leaf.shape.as_list(), _DUMMY_TEXT, dtype=object))
        return Tensor(leaf.value_from([np.asarray(v) for v in values]))
    return Tensor(np.asarray(values[0]))  # a NumPy-backed tensor: string ops read it with NumPy


def _probe(run, arrays, name):
    """The op's result on stand-in values (zeros, ``b'0'``): its dtype and shape."""
    stand_ins = [np.zeros(a.shape, a.dtype) for a in arrays]
    try:
        with eager_scope():
            out = run(*stand_ins, dummy=True)
    except Exception as error:  # noqa: BLE001 - any failure: the op cannot be deferred
        raise TypeError(
            f"strings.{name} inside a function was given a value known only when the compiled program "
            f"runs, and companion could not defer it to the host ({type(error).__name__}: {error}). "
            "String tensors are not part of XLA programs: compute the numbers in the function and "
            "call the string op on its result outside, eagerly.") from error
    if not isinstance(out, Tensor):
        raise TypeError(f"strings.{name} on values known only when a function runs must give one tensor "
                        f"(companion defers such calls to the host); it gave {type(out).__name__}. Call it "
                        "outside the function, eagerly.")
    return out

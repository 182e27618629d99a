"""`custom_gradient`: a function that says how to differentiate itself.

The decorated ``f(*x)`` returns ``(y, grad_fn)``; ``grad_fn(*dy)`` returns one gradient per
input (``None`` for none), and, when ``f`` reads trainable Variables, takes
``variables=`` and returns ``(input_grads, variable_grads)``.

How it meets companion's interpreters: the call runs ``f`` once with the tapes paused
(a private tape finds the Variables it reads) and hands every recording `GradientTape`
one record whose op is a ``jax.custom_vjp`` function of the inputs and those Variables'
values. Its backward rule runs ``f`` again on the saved inputs to get a fresh
``grad_fn`` and calls it, so a tape's compiled replay, a tape inside `companion.function`
and a tape around a function (which differentiates the whole traced program) all use
``grad_fn``. ``f``'s Python therefore runs again when gradients are computed.
"""

import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _nest
from companion._core._context import state
from companion._core._convert import convert_to_tensor
from companion._core._op import Op
from companion._core._tensor import Tensor
from companion._tape._gradient_tape import GradientTape
from companion._tape._replay import CUSTOM_PREFIX, report_none_gradients

__all__ = ["custom_gradient"]


def custom_gradient(f=None):
    """Decorates ``f(*x) -> (y, grad_fn)`` so that gradients of ``y`` come from ``grad_fn``.

    Example:
        >>> import companion as tf
        >>> @tf.custom_gradient
        ... def log1pexp(x):
        ...     e = tf.exp(x)
        ...     return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))
        >>> x = tf.constant(100.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = log1pexp(x)
        >>> print(tape.gradient(y, x))
        companion.Tensor(1.0, shape=(), dtype=float32)
    """
    if f is None:
        return custom_gradient
    ops = {}

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _call(f, ops, args, kwargs)

    return decorated


def _call(f, ops, args, kwargs):
    leaves = [convert_to_tensor(x) for x in _nest.flatten(list(args))]
    rebuilt = _nest.pack_sequence_as(list(args), leaves)
    if state.staging:
        # deferred: the staging layer is built on the tape (an upward import)
        from companion._staging._tensor_array import quiet_probe

        with quiet_probe():  # the op below runs f again: Python prints once, from that run
            _, _, variables = _run_f(f, rebuilt, kwargs)
    else:
        y, grad_fn, variables = _run_f(f, rebuilt, kwargs)
    structure, op = _op_for(f, ops, args, kwargs, len(leaves), variables, rebuilt)
    inputs = leaves + variables
    if state.staging:  # the traced program holds the custom rule (a tape around the function uses it)
        outputs = op.apply(inputs, {})
        return _nest.pack_sequence_as(structure["y"], list(outputs))
    flat_y = [convert_to_tensor(v) for v in _nest.flatten(y)]
    reads = {}  # nested tapes see the same Variable reads
    for tape in list(state.tapes):
        tape._record(op, {}, inputs, tuple(flat_y), reads)
    return _nest.pack_sequence_as(y, flat_y)


def _run_f(f, args, kwargs):
    """``f(*args)`` with the tapes paused; returns (y, grad_fn, trainable Variables it read)."""
    finder = GradientTape(persistent=True)
    tapes, state.tapes = state.tapes, [finder]
    finder._recording = True
    try:
        result = f(*args, **kwargs)
    finally:
        state.tapes = tapes
        finder._recording = False
    if not (isinstance(result, (tuple, list)) and len(result) == 2 and callable(result[1])):
        raise TypeError("A @custom_gradient function must return (outputs, grad_fn) with grad_fn a "
                        f"callable. Received: {result!r}")
    variables = list(finder.watched_variables())
    if variables and not _takes_variables(result[1]):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
                        f"function uses variables: {variables}\nDefine grad_fn(*upstream, variables=None) "
                        "returning (input_gradients, variable_gradients).")
    return result[0], result[1], variables


def _op_for(f, ops, args, kwargs, n_inputs, variables, rebuilt):
    """The (cached) `Op` running ``f`` with ``grad_fn`` as its derivative."""
    key = (jax.tree_util.tree_structure(_nest.flatten(list(args))), repr(sorted(kwargs.items())), n_inputs,
           tuple(id(v) for v in variables))
    if key in ops:
        return ops[key]
    structure = {"y": None}

    def forward(arrays):
        with _bound(variables, arrays[n_inputs:]):
            args_now = _nest.pack_sequence_as(rebuilt, [Tensor(a) for a in arrays[:n_inputs]])
            y, grad_fn, _ = _run_f(f, args_now, kwargs)
        structure["y"] = y
        return tuple(convert_to_tensor(v)._value for v in _nest.flatten(y)), grad_fn

    @jax.custom_vjp
    def run(*arrays):
        return forward(arrays)[0]

    def run_fwd(*arrays):
        return forward(arrays)[0], arrays

    def run_bwd(arrays, cotangents):
        _, grad_fn = forward(arrays)
        upstream = [Tensor(c) for c in cotangents]
        tapes, state.tapes = state.tapes, []
        try:
            with _bound(variables, arrays[n_inputs:]):
                grads = grad_fn(*upstream, variables=variables) if variables else grad_fn(*upstream)
        finally:
            state.tapes = tapes
        return _as_cotangents(grads, arrays, n_inputs, len(variables),
                              lambda positions: report_none_gradients(run, positions))

    run.defvjp(run_fwd, run_bwd)
    op = Op(f"{CUSTOM_PREFIX}{getattr(f, '__name__', 'f')}", run, jit=False)
    ops[key] = (structure, op)
    return structure, op


def _as_cotangents(grads, arrays, n_inputs, n_variables, report_none=None):
    """One cotangent per input array; ``report_none(positions)`` learns where grad_fn gave None."""
    if n_variables:
        if not (isinstance(grads, (tuple, list)) and len(grads) == 2):
            raise ValueError("A @custom_gradient grad_fn called with variables= must return "
                             f"(input_gradients, variable_gradients). Received: {grads!r}")
        input_grads, variable_grads = grads
    else:
        input_grads, variable_grads = grads, []
    input_grads = list(input_grads) if isinstance(input_grads, (tuple, list)) else [input_grads]
    variable_grads = list(variable_grads) if isinstance(variable_grads, (tuple, list)) else [variable_grads]
    if len(input_grads) != n_inputs:
        raise ValueError(f"custom_gradient function expected to return {n_inputs} gradients, but returned "
                         f"{len(input_grads)} instead.\nReturn one gradient (or None) per input of the "
                         "function.")
    if len(variable_grads) != n_variables:
        raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.\n"
                         f"Expected {n_variables} variable gradients (one per Variable the function reads), "
                         f"received {len(variable_grads)}.")
    grads = input_grads + variable_grads
    if report_none is not None:
        report_none([i for i, g in enumerate(grads) if g is None])
    return tuple(_cotangent(g, a) for g, a in zip(grads, arrays))


def _cotangent(grad, array):
    if not jnp.issubdtype(array.dtype, jnp.inexact):
        return np.zeros(array.shape, jax.dtypes.float0)
    if grad is None:
        return jnp.zeros(array.shape, array.dtype)
    value = convert_to_tensor(grad)._value
    return jnp.broadcast_to(value, array.shape).astype(array.dtype)


class _bound:
    """Within the block, ``variables`` read as ``values`` (the arrays a differentiated op received)."""

    def __init__(self, variables, values):
        self._pairs = list(zip(variables, values))

    def __enter__(self):
        self._saved = [(v._v, v._read_cache) for v, _ in self._pairs]
        for variable, value in self._pairs:
            variable._v, variable._read_cache = value, None

    def __exit__(self, *exc_info):
        for (variable, _), (v, cache) in zip(self._pairs, self._saved):
            variable._v, variable._read_cache = v, cache


def _takes_variables(fn):
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in parameters)

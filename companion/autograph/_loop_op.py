"""A staged loop as one differentiable op: what a `GradientTape` recording inside a function sees.

A compiled loop (AutoGraph's ``for``/``while`` on tensors, `while_loop`, `map_fn`, `scan`)
is a pure function of its initial state and of the tensors its body and test capture
(their program constants). `loop_function` builds that function; `apply_recorded` applies
it as one `Op` on the state's Tensors and on the Variables and Tensors behind those
constants, so a tape recording inside the function records the loop like any other op and
differentiates it by replaying it under ``jax.vjp``.

How each loop is differentiated in reverse mode:

* a trip count bounded while tracing (static ``range``/``tf.range`` bounds, a tensor's
  first dimension, ``maximum_iterations``, a TensorArray's size): a ``lax.scan`` of that
  length whose steps run the body only while the test holds, which JAX differentiates;
* a trip count known only when the function runs: a ``lax.while_loop`` (XLA's while loop
  has no reverse-mode derivative of its own) with a custom derivative that *recomputes*:
  the backward pass runs the body's pullback from the last iteration to the first, each
  time recomputing that iteration's state from the initial one. It is exact, needs no
  memory per iteration, and costs about ``n**2 / 2`` body evaluations for ``n``
  iterations; pass ``maximum_iterations`` (or loop over a range with bounds known while
  tracing) to get the linear-cost ``lax.scan`` instead.
"""

import contextlib

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from companion._core._context import state
from companion._core._op import Op
from companion._core._tensor import Tensor
from companion._staging._tensor_array import TensorArray


def loop_function(body_block, test_block, body_slots, test_slots, n, static_count):
    """The loop as ``run(*carry, *body_consts, *test_consts) -> final carry``.

    ``carry`` is the ``n`` flat state arrays followed by the values of the Variables the
    body assigns; the constants at ``*_slots`` (those Variables' values before the loop)
    are replaced by the carried values.
    """
    n_body = len(body_block.closed.consts)

    def run(*arrays):
        n_carry = len(arrays) - n_body - len(test_block.closed.consts)
        carry = tuple(arrays[:n_carry])
        consts = tuple(arrays[n_carry:])

        def with_carried(values, slots, carry):
            values = list(values)
            for positions, value in zip(slots, carry[n:]):
                for position in positions:
                    values[position] = value
            return values

        def test(carry, consts):
            values = with_carried(consts[n_body:], test_slots, carry)
            out = jax.core.eval_jaxpr(test_block.closed.jaxpr, values, *carry[:n])
            return jnp.reshape(out[0], ()).astype(bool)

        def body(carry, consts):
            values = with_carried(consts[:n_body], body_slots, carry)
            return tuple(jax.core.eval_jaxpr(body_block.closed.jaxpr, values, *carry[:n]))

        if static_count is None:
            return _recomputing_while(test, body)(carry, consts)

        def step(carry, _):
            return lax.cond(test(carry, consts), lambda c: body(c, consts), lambda c: tuple(c), carry), None

        return lax.scan(step, carry, None, length=int(static_count))[0]

    return run


@contextlib.contextmanager
def tapes_paused():
    """Tracing a loop's blocks records nothing: the loop is recorded once, as one op."""
    tapes, state.tapes = state.tapes, []
    try:
        yield tapes
    finally:
        state.tapes = tapes


def apply_recorded(run, state_values, arrays, initial_variables, consts, what):
    """Applies ``run`` as one `Op` on Tensors; returns the output Tensors (state, then Variables).

    ``state_values`` are the loop's state (Tensors, TensorArrays, numbers) and ``arrays``
    their flat arrays; each array is matched to the Tensor that holds it, so the tape
    connects the loop to what was computed before it.
    """

    holders = {}
    for value in state_values:
        for tensor in _tensors_of(value):
            holders[id(tensor._value)] = tensor
    inputs = [holders[id(a)] if id(a) in holders else Tensor(a) for a in arrays]
    inputs += [Tensor(v) for v in initial_variables]
    trace = state.traces[-1]
    inputs += [captured_input(c, trace, state.tapes) for c in consts]
    outputs = Op(what, run, jit=False).apply(inputs, {})
    return outputs if isinstance(outputs, tuple) else (outputs,)


def captured_input(constant, trace, tapes):
    """The Variable or Tensor a traced block's constant stands for (a new Tensor if none)."""
    variable = trace.variable_for(constant)
    if variable is not None:
        return variable
    for tape in tapes:
        for tensor in tape._tracked.values():
            if isinstance(tensor, Tensor) and tensor._value is constant:
                return tensor
    return Tensor(constant)


def _tensors_of(value):
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, TensorArray) and value._buffer is not None:
        return [value._buffer, value._length]
    return []


def _recomputing_while(test, body):
    """``lax.while_loop`` over flat tuples ``(carry, consts)``, with a reverse-mode derivative that
    recomputes each iteration's state; its backward pass is built the same way, so it is
    itself differentiable (a tape of a tape)."""

    @jax.custom_vjp
    def loop(carry, consts):
        return lax.while_loop(lambda c: test(c, consts), lambda c: body(c, consts), carry)

    def forward(carry, consts):
        def counted(s):
            return body(s[0], consts), s[1] + 1

        final, count = lax.while_loop(lambda s: test(s[0], consts), counted, (carry, jnp.int32(0)))
        return final, (carry, consts, count)

    def backward(saved, cotangent):
        carry, consts, count = saved
        carry_floats = [i for i, x in enumerate(carry) if _differentiable(x)]
        const_floats = [i for i, x in enumerate(consts) if _differentiable(x)]
        n_c = len(carry_floats)

        def state_at(k, carry, consts):  # the state entering iteration k: k body steps from the start
            run = _recomputing_while(lambda s, cs: s[-1] < cs[-1],
                                     lambda s, cs: tuple(body(s[:-1], cs[:-1])) + (s[-1] + 1,))
            return run(tuple(carry) + (jnp.int32(0),), tuple(consts) + (k,))[:-1]

        def float_body(at, consts, float_carry, float_consts):
            full_carry, full_consts = list(at), list(consts)
            for i, x in zip(carry_floats, float_carry):
                full_carry[i] = x
            for i, x in zip(const_floats, float_consts):
                full_consts[i] = x
            out = body(tuple(full_carry), tuple(full_consts))
            return [out[i] for i in carry_floats]

        def step(s, saved):  # one iteration of the pullback, from the last iteration to the first
            carry, consts = saved[:len(cotangent)], saved[len(cotangent):]
            k, ct_carry, ct_consts = s[0] - 1, list(s[1:1 + n_c]), list(s[1 + n_c:])
            at = state_at(k, carry, consts)
            _, pullback = jax.vjp(lambda fc, fk: float_body(at, consts, fc, fk),
                                  [at[i] for i in carry_floats], [consts[i] for i in const_floats])
            d_carry, d_consts = pullback(ct_carry)
            return (k,) + tuple(d_carry) + tuple(a + b for a, b in zip(ct_consts, d_consts))

        start = (count,) + tuple(cotangent[i] for i in carry_floats) + tuple(
            jnp.zeros_like(consts[i]) for i in const_floats)
        out = _recomputing_while(lambda s, _: s[0] > 0, step)(start, tuple(carry) + tuple(consts))
        return _expand(out[1:1 + n_c], carry_floats, carry), _expand(out[1 + n_c:], const_floats, consts)

    loop.defvjp(forward, backward)
    return loop


def _differentiable(x):
    return jnp.issubdtype(x.dtype, jnp.inexact)


def _expand(grads, positions, like):
    """Cotangents for every entry of ``like``: ``grads`` at ``positions``, float0 zeros elsewhere."""
    out = [np.zeros(np.shape(x), dtype=jax.dtypes.float0) for x in like]
    for i, g in zip(positions, grads):
        out[i] = g
    return tuple(out)

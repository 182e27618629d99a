"""A tensor used after the `function` call that computed it ended: TensorFlow's ``TypeError``.

A tensor made inside a staged function holds a traced value, which exists only while the
function traces. Kept in a Python list or global and used afterwards (``leaked.append(y)``,
then ``leaked[0] + 1``), it reaches a trace that has ended: JAX raises its
``UnexpectedTracerError`` and an assignment would store the dead value. TF raises ``TypeError``
("... is out of scope and cannot be used here"); so does companion, naming the fix.
"""

import weakref

import jax
from jax._src import core as _jax_core  # trace_state_clean: is any JAX trace active

_ENDED_FUNCTIONS = weakref.WeakSet()  # the JAX traces of `function` calls that have ended


def is_out_of_scope(value):
    """Whether ``value`` (a tensor's stored value) is a traced value of a trace that has ended:
    a tracer while no JAX trace runs (companion used under ``jax.jit`` sees live ones), or one
    of a trace JAX has closed."""
    if not isinstance(value, jax.core.Tracer):
        return False
    return _jax_core.trace_state_clean() or not value._trace.is_valid()


def function_ended(jax_trace):
    """Notes that the JAX trace of a whole staged function (not a block inside one) has ended."""
    _ENDED_FUNCTIONS.add(jax_trace)


def of_ended_function(value):
    """Whether the tracer ``value`` was made by a staged function whose trace has ended (used in
    another function, it is out of scope there, not a loop's value kept past the loop)."""
    return getattr(value, "_trace", None) in _ENDED_FUNCTIONS


def out_of_scope_error(tensor):
    """TF's ``TypeError`` for ``tensor`` (or its description), made inside a `function` call that
    has ended."""
    shown = tensor if isinstance(tensor, str) else repr(tensor)
    return TypeError(
        f"{shown} is out of scope and cannot be used here. Use return values, explicit Python locals "
        "or TensorFlow collections to access it: it was computed inside a companion.function call "
        "that has ended (kept in a Python list or global), and a traced value exists only while its "
        "function traces. Return it from the function instead; returned values are ordinary tensors.")

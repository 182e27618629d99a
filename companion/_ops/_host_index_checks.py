"""Index range checks inside dataset functions: TF runs a dataset function on the CPU, where an
out-of-range index (``tf.gather(params, 5)`` on 2 rows) is an `InvalidArgumentError` when the
element reaches it, not the 0 a compiled function on an accelerator selects.

While a dataset function traces (`checking_indices`), `gather`/`gather_nd`/``x[i]`` pass their
traced indices through a test in the program; only when it finds a bad index do they go through a
host callback that raises TF's error (else they are handed back unchanged): the gather uses the
result, so the check cannot be dropped, and it stays a pure function (the dataset can still
vectorise the map). A failed check is kept by `_callback_errors` for the call to re-raise.
Outside dataset functions nothing changes (no work on the eager path: concrete indices are
checked by the ops themselves).

Constant indices that fail that check while a function traces on a traced tensor (`checked_now`)
are TF's run-time error, not a trace-time one: TF's graph runs only the ops its outputs need, so
an unused ``tf.gather(x, [5])`` never raises. The check becomes a host call the indices pass
through, which the compiled program drops with the unused result.
"""

import contextlib
import threading

import jax
import jax.custom_batching
import jax.numpy as jnp
import numpy as np

from companion._core import _callback_errors
from companion._core._errors import OpError
from companion._core._tensor import Tensor

_local = threading.local()


@contextlib.contextmanager
def checking_indices():
    """Traces in this block check traced gather indices when the program runs (a dataset function)."""
    depth = getattr(_local, "depth", 0)
    _local.depth = depth + 1
    try:
        yield
    finally:
        _local.depth = depth


def active():
    return getattr(_local, "depth", 0) > 0


def checked_now(indices, check, staged):
    """``indices`` (a concrete `Tensor`) after ``check(numpy_indices)``; when it raises and
    ``staged`` (the op's data is traced), ``indices`` passed through a host call that raises it
    when the program runs the op (never, when nothing uses its result)."""
    try:
        check(np.asarray(indices))
    except OpError:
        if not staged:
            raise
    else:
        return indices
    values = indices._value

    def on_host(array):
        try:
            check(np.asarray(array))
        except OpError as error:
            _callback_errors.remember(error)  # the call re-raises it (XLA wraps what a callback raises)
            raise
        return array

    return Tensor(jax.pure_callback(on_host, jax.ShapeDtypeStruct(values.shape, values.dtype), values))


def checked(indices, check, bad):
    """``indices`` (a traced JAX array) after ``check(numpy_indices)`` ran on them on the host,
    only when ``bad(indices)`` (a JAX function: which entries are out of range) finds one: a
    program whose indices are in range makes no host call. Vectorised over a batch of elements,
    the test covers the whole batch (one decision, not a host call per element)."""
    rank = indices.ndim

    def on_host(values):
        values = np.asarray(values)
        try:
            try:
                check(values)
            except OpError:
                if values.ndim == rank:
                    raise
                # a vectorised dataset function checks a batch of elements: name the element's index
                for row in values.reshape((-1, *values.shape[values.ndim - rank:])):
                    check(row)
                raise
        except OpError as error:
            _callback_errors.remember(error)  # the call re-raises it (XLA wraps what a callback raises)
            raise
        return values

    def gated(values):
        def call_host(v):
            return jax.pure_callback(on_host, jax.ShapeDtypeStruct(v.shape, v.dtype), v)

        return jax.lax.cond(jnp.any(bad(values)), call_host, lambda v: v, values)

    @jax.custom_batching.custom_vmap
    def run(values):
        return gated(values)

    @run.def_vmap
    def _batched(axis_size, in_batched, values):  # the whole batch at once: one test, one cond
        return run(values), in_batched[0]

    return run(indices)

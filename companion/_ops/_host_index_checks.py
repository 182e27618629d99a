"""Index range checks inside dataset functions: TF runs a dataset function on the CPU, where an
out-of-range index (``tf.gather(params, 5)`` on 2 rows) is an `InvalidArgumentError` when the
element reaches it, not the 0 a compiled function on an accelerator selects.

While a dataset function traces (`checking_indices`), `gather`/`gather_nd` pass their traced
indices through a host callback that checks them and hands them back unchanged: the gather uses
its result, so the check cannot be dropped, and it stays a pure function (the dataset can still
vectorise the map). A failed check is kept by `_callback_errors` for the call to re-raise.
Outside dataset functions nothing changes (no work on the eager path: concrete indices are
checked by the ops themselves).
"""

import contextlib
import threading

import jax
import numpy as np

from companion._core import _callback_errors
from companion._core._errors import OpError

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


def checked(indices, check):
    """``indices`` (a traced JAX array) after ``check(numpy_indices)`` ran on them on the host."""
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

    shape = jax.ShapeDtypeStruct(indices.shape, indices.dtype)
    return jax.pure_callback(on_host, shape, indices, vmap_method="broadcast_all")

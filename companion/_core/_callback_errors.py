"""Errors raised by host callbacks inside compiled programs (the run-time checks of
`companion.debugging`): XLA reports them as a ``JaxRuntimeError``; the original exception is kept
here so a `function` call re-raises it as it was (an `InvalidArgumentError`, as TF raises)."""

import logging
import threading

import jax

_local = threading.local()


class _RememberedErrors(logging.Filter):
    """Drops JAX's log of a callback failure that the call re-raises itself (the check's own error
    reaches the user once, as an exception, not also as a logged traceback)."""

    def filter(self, record):
        error = record.exc_info[1] if record.exc_info else None
        return error is None or error is not getattr(_local, "error", None)


logging.getLogger("jax._src.callback").addFilter(_RememberedErrors())


def remember(error):
    """Keeps ``error`` (raised in a callback) for the call that runs the program."""
    _local.error = error


def reraised(call, *args):
    """``call(*args)``; a ``JaxRuntimeError`` caused by a remembered callback error raises that error.
    (A jitted call that runs from JAX's C++ fast path reports it as a ``ValueError``.)"""
    _local.error = None
    try:
        return call(*args)
    except (jax.errors.JaxRuntimeError, ValueError):
        error, _local.error = getattr(_local, "error", None), None
        if error is None:
            raise
        raise error from None

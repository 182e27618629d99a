"""Safe mode: whether deserializing may run stored bytecode (a ``lambda``); off only when asked."""

import threading

_STATE = threading.local()
_UNSAFE = [False]  # set for the whole process by enable_unsafe_deserialization


def enable_unsafe_deserialization():
    """Lets every later load revive lambdas (stored Python bytecode), as ``safe_mode=False`` does once.

    Only for files you trust: a lambda's bytecode can do anything when it runs.
    """
    _UNSAFE[0] = True


def in_safe_mode():
    """False after `enable_unsafe_deserialization`; else the ``safe_mode`` of the load in progress
    (None outside of any)."""
    return False if _UNSAFE[0] else getattr(_STATE, "value", None)


class SafeModeScope:
    """A ``with`` block during which loads inside use ``safe_mode`` (an outer load's setting wins over
    the ``safe_mode`` argument of the ones nested in it)."""

    def __init__(self, safe_mode=True):
        self.safe_mode = safe_mode

    def __enter__(self):
        self._previous = getattr(_STATE, "value", None)
        _STATE.value = self.safe_mode
        return self

    def __exit__(self, *exc):
        _STATE.value = self._previous

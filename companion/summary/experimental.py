"""``companion.summary.experimental``: the default step (TensorFlow's ``tf.summary.experimental``)."""

import contextlib

from companion._core._scopes import get_current_name_scope, name_scope
from companion.summary._state import state


def get_step():
    """The default step for summaries: what `set_step` or ``as_default(step=...)`` set, else None.

    A Variable or tensor set as the step is returned as is (so a Variable keeps counting).
    """
    return state.step


def set_step(step):
    """Sets the default step (an int, a tensor, a Variable, or None to unset it)."""
    state.step = step


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """A block whose summaries get tags prefixed like `companion.name_scope`; yields ``(tag, scope)``."""

    name = name or default_name
    with name_scope(name) as scope:
        outer = get_current_name_scope()
        yield outer, scope


__all__ = ["get_step", "set_step", "summary_scope"]

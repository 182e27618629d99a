"""Per-thread interpreter state: which tapes are recording, and whether code is being staged."""

import threading


class _State(threading.local):
    def __init__(self):
        self.tapes = []  # recording GradientTapes, innermost last
        self.staging = 0  # > 0 while a companion.function or strategy.run traces Python code
        self.traces = []  # the active staging Traces (companion._staging.Trace), innermost last


state = _State()


def executing_eagerly():
    """True unless the calling code is being traced by `companion.function` or a strategy.

    Example:
        >>> import companion as tf
        >>> tf.executing_eagerly()
        True
    """
    return state.staging == 0

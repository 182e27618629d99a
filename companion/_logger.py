"""`get_logger`: the ``logging.Logger`` named "tensorflow", which TensorFlow code configures."""

import logging
import sys

_configured = []


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is when a record is emitted (a notebook's or pytest's stream
    replaces it after import)."""

    def __init__(self):
        super().__init__()
        self.setFormatter(logging.Formatter(logging.BASIC_FORMAT))

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def get_logger():
    """The standard-library logger named ``"tensorflow"`` (``tf.get_logger().setLevel("ERROR")``).

    The first call gives it TF's handler when the program has set up no logging of its own (the
    root logger has no handler): records go to stderr as ``WARNING:tensorflow:<message>``, as
    TensorFlow prints them.

    Example:
        >>> import companion as tf
        >>> tf.get_logger().name
        'tensorflow'
    """
    logger = logging.getLogger("tensorflow")
    if not _configured:
        _configured.append(True)
        if not logging.getLogger().handlers:
            logger.addHandler(_StderrHandler())
    return logger

"""Exception classes with TensorFlow's names; each subclasses the builtin a Python user would catch."""


class OpError(Exception):
    """Base class of the errors an op raises (TensorFlow's ``tf.errors.OpError``)."""


class InvalidArgumentError(OpError, ValueError):
    """An op received an argument it cannot use (wrong dtype, shape or value)."""


class NotFoundError(OpError, LookupError):
    """A file or device that was asked for does not exist."""


class UnimplementedError(OpError, NotImplementedError):
    """The operation is not available for these inputs on this platform."""


class OutOfRangeError(OpError, IndexError):
    """An index or an iterator went past its end."""


class DataLossError(OpError, IOError):
    """Stored data is corrupted or truncated."""


class FailedPreconditionError(OpError, RuntimeError):
    """The system is not in a state in which this operation can run."""

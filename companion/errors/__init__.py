"""``companion.errors``: TensorFlow's exception names, each a subclass of the matching builtin."""

from companion._errors import (
    DataLossError,
    FailedPreconditionError,
    InvalidArgumentError,
    NotFoundError,
    OpError,
    OutOfRangeError,
    UnimplementedError,
)
from companion._staging_errors import OperatorNotAllowedInGraphError

__all__ = [
    "DataLossError", "FailedPreconditionError", "InvalidArgumentError", "NotFoundError", "OpError",
    "OperatorNotAllowedInGraphError", "OutOfRangeError", "UnimplementedError",
]

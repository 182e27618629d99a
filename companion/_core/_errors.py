"""Exception classes with TensorFlow's names; each subclasses the builtin a Python user would catch.

TensorFlow raises an `OpError` subclass when an op fails while running (eagerly, or inside a
`function` when the check happens at run time), and a plain ``ValueError``/``TypeError`` when the
same mistake is found while tracing (shapes and dtypes known statically). companion checks most
things as soon as it can, so its errors subclass both: ``except tf.errors.InvalidArgumentError``
and ``except ValueError`` (or ``TypeError``, where TF's tracing raises that) catch the same error.
"""

OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION = 6, 7, 8, 9
ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED = (
    10, 11, 12, 13, 14, 15, 16)


class OpError(Exception):
    """Base class of the errors an op raises (TensorFlow's ``tf.errors.OpError``).

    Accepts TensorFlow's ``(node_def, op, message, *args)`` as well as companion's single
    ``message``; ``message``, ``op``, ``node_def`` and ``error_code`` are attributes as in TF.

    Example:
        >>> import companion as tf
        >>> try:
        ...     raise tf.errors.InvalidArgumentError(None, None, "bad value")
        ... except ValueError as error:
        ...     print(error.message, error.error_code)
        bad value 3
    """

    error_code = UNKNOWN

    def __init__(self, *args):
        if len(args) >= 3:  # TensorFlow's signature: node_def, op, message[, error_code]
            node_def, op, message = args[:3]
            if type(self) is OpError and len(args) >= 4:
                self.error_code = args[3]
        else:
            node_def, op, message = None, None, args[0] if args else ""
        super().__init__(message)
        self.message, self.op, self.node_def = message, op, node_def

    def __str__(self):
        return str(self.message)


def _error(name, code, builtin, doc):
    """One TF error class: subclass of `OpError` and of the builtin Python code would catch."""
    return type(name, (OpError, builtin), {"__doc__": doc, "error_code": code, "__module__": __name__})


CancelledError = _error("CancelledError", CANCELLED, RuntimeError, "An operation was cancelled.")
UnknownError = _error("UnknownError", UNKNOWN, RuntimeError, "An error of no other kind.")
InvalidArgumentError = _error("InvalidArgumentError", INVALID_ARGUMENT, ValueError,
                              "An op received an argument it cannot use (wrong dtype, shape or value).")
DeadlineExceededError = _error("DeadlineExceededError", DEADLINE_EXCEEDED, TimeoutError,
                               "An operation did not finish before its deadline.")
NotFoundError = _error("NotFoundError", NOT_FOUND, LookupError,
                       "A file or device that was asked for does not exist.")
AlreadyExistsError = _error("AlreadyExistsError", ALREADY_EXISTS, FileExistsError,
                            "A file or object to be created exists already.")
PermissionDeniedError = _error("PermissionDeniedError", PERMISSION_DENIED, PermissionError,
                               "The caller may not run this operation (e.g. a file it cannot read).")
ResourceExhaustedError = _error("ResourceExhaustedError", RESOURCE_EXHAUSTED, MemoryError,
                                "A resource (memory, disk) ran out.")
FailedPreconditionError = _error("FailedPreconditionError", FAILED_PRECONDITION, RuntimeError,
                                 "The system is not in a state in which this operation can run.")
AbortedError = _error("AbortedError", ABORTED, RuntimeError, "An operation was aborted (e.g. a conflict).")
OutOfRangeError = _error("OutOfRangeError", OUT_OF_RANGE, IndexError,
                         "An index or an iterator went past its end.")
UnimplementedError = _error("UnimplementedError", UNIMPLEMENTED, NotImplementedError,
                            "The operation is not available for these inputs on this platform.")
InternalError = _error("InternalError", INTERNAL, RuntimeError, "An invariant of the runtime was broken.")
UnavailableError = _error("UnavailableError", UNAVAILABLE, ConnectionError,
                          "A service (a worker, a device) is not available now.")
DataLossError = _error("DataLossError", DATA_LOSS, IOError, "Stored data is corrupted or truncated.")
UnauthenticatedError = _error("UnauthenticatedError", UNAUTHENTICATED, PermissionError,
                              "The request has no valid credentials.")


class InaccessibleTensorError(ValueError):
    """A tensor made inside a staged loop or branch was used outside it (TF's error of this name)."""


def _also(base, builtin):
    """``base`` that is also a ``builtin`` and still shows ``base``'s name (``type(e).__name__``)."""
    cls = type(base.__name__, (base, builtin), {"__doc__": f"{base.__doc__} (also a {builtin.__name__})",
                                                "__module__": __name__})
    cls.__qualname__ = base.__qualname__
    return cls


# TF raises InvalidArgumentError for a dtype mismatch eagerly and TypeError while tracing: both catch it.
InvalidArgumentTypeError = _also(InvalidArgumentError, TypeError)
# An unsupported cast: TF's UnimplementedError; companion raised TypeError before, so both catch it.
UnimplementedTypeError = _also(UnimplementedError, TypeError)


def _shown_as(name, bases, doc):
    """A class of ``bases`` that shows ``name`` (``type(e).__name__``): TF's class for a mistake,
    also catchable as the class companion raised before, or as TF's class in the other mode."""
    cls = type(name, bases, {"__doc__": doc, "__module__": __name__})
    cls.__qualname__ = name
    return cls


# Tensors of two dtypes in one op while a function traces: TF raises TypeError there (and
# InvalidArgumentError eagerly, `InvalidArgumentTypeError`); each catches as the other too.
TracedDtypeMismatchError = _shown_as("TypeError", (InvalidArgumentError, TypeError),
                                     "Operands of two dtypes met while a function traced (TF's TypeError).")
# A dtype an op has no kernel for, met while a function traces: TF raises TypeError there (its op
# definition refuses the dtype) and InvalidArgumentError eagerly; each catches as the other too.
TracedUnsupportedDtypeError = _shown_as("TypeError", (InvalidArgumentError, TypeError),
                                        "A dtype an op does not take, met while a function traced.")
# A shape or argument mistake found while a function traces (shapes are static there): TF's shape
# inference raises ValueError, where the same op raises InvalidArgumentError eagerly; each catches
# as the other too. `_staging.stage` turns an InvalidArgumentError raised in a trace into this.
TracedShapeError = _shown_as("ValueError", (InvalidArgumentError, ValueError),
                             "A shape or argument mistake met while a function traced (TF's ValueError).")


# A check of values (an index out of range, a failed assertion, a string that does not parse): TF
# runs it inside the program, so it stays InvalidArgumentError in a function too, even where
# companion makes it while tracing (its values are constants); `stage` leaves it as it is.
RuntimeCheckError = _shown_as("InvalidArgumentError", (InvalidArgumentError,),
                              "A check of values TF makes when the program runs (InvalidArgumentError).")


# A value convert_to_tensor cannot take (a dict, an object): TF raises ValueError eagerly and
# TypeError while tracing; companion raised TypeError before, so both catch it.
ConversionError = _shown_as("ValueError", (ValueError, TypeError),
                            "A Python value that cannot become a tensor (TF's ValueError).")
# tape.gradient(y, 3.0): TF fails reading the source's dtype (AttributeError; TypeError for None or
# a string); companion raised ValueError before, so that catches it too.
GradientSourceAttributeError = _shown_as("AttributeError", (AttributeError, ValueError),
                                         "A gradient source or target that is no tensor (TF's class).")
GradientSourceTypeError = _shown_as("TypeError", (TypeError, ValueError),
                                    "A gradient source that is None or a string (TF's TypeError).")

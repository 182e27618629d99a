"""The tf.errors classes, their codes and their builtin bases."""
import tensorflow as tf

names = ["InvalidArgumentError", "NotFoundError", "OutOfRangeError", "ResourceExhaustedError",
         "UnimplementedError", "InternalError", "FailedPreconditionError", "UnknownError",
         "AlreadyExistsError", "PermissionDeniedError", "AbortedError", "CancelledError",
         "DeadlineExceededError", "DataLossError", "UnauthenticatedError", "UnavailableError"]
for name in names:
    cls = getattr(tf.errors, name)
    builtins = (ValueError, TypeError, LookupError, IndexError, KeyError)
    bases = [b.__name__ for b in builtins if issubclass(cls, b)]
    print(name, issubclass(cls, tf.errors.OpError), bases)
print(tf.errors.INVALID_ARGUMENT, tf.errors.OUT_OF_RANGE, tf.errors.NOT_FOUND)
e = tf.errors.InvalidArgumentError(None, None, "bad")
print(e.error_code, e.message)

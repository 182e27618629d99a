"""Turns Python's ``OSError``s into TensorFlow's error classes, keeping what happened and to which path."""

import contextlib

from companion._core import _errors


@contextlib.contextmanager
def tf_errors(what, path):
    """Runs the block, re-raising an ``OSError`` as the TF error class gfile raises for it."""
    try:
        yield
    except _errors.OpError:
        raise
    except OSError as error:
        raise translate(error, what, path) from error


def translate(error, what, path):
    """The TF error for ``error`` raised by ``what`` on ``path``."""
    reason = error.strerror or str(error)
    message = f"{what}: {reason}: {str(path)!r}"
    if isinstance(error, FileNotFoundError):
        return _errors.NotFoundError(f"{message}. Check the path (relative paths start in the working "
                                     "directory), or create it first.")
    if isinstance(error, FileExistsError):
        return _errors.AlreadyExistsError(f"{message}. Pass overwrite=True to replace it.")
    if isinstance(error, PermissionError):
        return _errors.PermissionDeniedError(message)
    if isinstance(error, NotADirectoryError):
        return _errors.NotFoundError(f"{message}: not a directory.")
    if isinstance(error, IsADirectoryError):
        return _errors.FailedPreconditionError(f"{message}: it is a directory (use rmtree for folders).")
    return _errors.UnknownError(message)

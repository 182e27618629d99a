"""TF's "in user code:" errors: an error raised while a converted function traces names the user's lines.

TensorFlow re-raises an exception that escapes a traced function (``tf.function``, a dataset
function) as a new one of the same class whose message lists the user's frames that led to it,
innermost last, and then the original ``Class: message``::

    in user code:

        File "prog.py", line 9, in f  *
            v = tf.Variable(1.0)

        ValueError: tf.function only supports singleton tf.Variables created on the first call. ...

malt (TF's AutoGraph converter) records the frames as converted calls raise (``ag_error_metadata``);
`attach_frames` records the outermost converted function's own frame as TF's top-level call does,
and `user_code_error` builds the exception TF raises, by TF's rules for its class: op errors and
companion's own classes keep theirs, builtins that take a message keep theirs, other classes
become AutoGraph's ``StagingError``. Frames inside companion, JAX or malt are left out, as TF's
traceback filtering leaves out TensorFlow's.
"""

import functools
import os

import jax
import malt
from malt.impl import api as malt_api
from malt.pyct import error_utils

import companion

# frames in these packages are companion's own machinery (TF filters its own frames out likewise)
_LIBRARY_DIRS = tuple(os.path.dirname(module.__file__) + os.sep for module in (companion, jax, malt))


def attach_frames(error, converted):
    """Records the frames from ``converted`` (a function malt converted) down to where ``error`` was
    raised, as TF's call of a traced function does; call it in the handler that caught ``error``.
    (Frames recorded below it already, by converted calls or a nested function, are kept.)"""
    if not getattr(error, "_companion_user_code", False):
        malt_api._attach_error_metadata(error, converted)


def recording_user_frames(converted):
    """``converted`` (a function malt converted, or a partial of one) calling `attach_frames` on an
    error it raises, so the error can name the user's lines as TF's does; a function that was not
    converted is returned as it is."""
    target = converted.func if isinstance(converted, functools.partial) else converted
    if getattr(target, "ag_source_map", None) is None:
        return converted

    def call(*args, **kwargs):
        try:
            return converted(*args, **kwargs)
        except Exception as error:
            attach_frames(error, target)
            raise

    call.__wrapped__ = converted
    return call


def user_code_error(error):
    """The exception TF raises for ``error`` escaping a traced function: ``error`` itself when no
    converted code raised it (or it was rewritten already)."""
    metadata = getattr(error, "ag_error_metadata", None)
    if metadata is None or getattr(error, "_companion_user_code", False):
        return error
    message = _message(metadata)
    new = _like(error, message)
    new = new.with_traceback(error.__traceback__)
    new.__suppress_context__ = True
    new.ag_error_metadata = metadata
    new._companion_user_code = True
    for note in getattr(error, "__notes__", ()):  # companion's advice, shown below the traceback
        new.add_note(note)
    return new


def _message(metadata):
    lines = ["in user code:", ""]
    for frame in reversed(metadata.translated_stack):
        if not frame.is_converted and frame.filename.startswith(_LIBRARY_DIRS):
            continue
        marker = "  *" if frame.is_converted else "  **" if frame.is_allowlisted else ""
        lines.append(f'    File "{frame.filename}", line {frame.lineno}, in {frame.function_name}{marker}')
        lines.append("        " + ("<source unavailable>" if frame.code is None else frame.code.strip()))
    lines.append("")
    lines.extend("    " + line for line in metadata.cause_message.split("\n"))
    lines.append("")
    return "\n".join(lines)


def _like(error, message):
    """A new exception carrying ``message``, of the class TF gives it."""
    cls = type(error)
    if cls.__module__.startswith("companion.") or cls.__module__ == "companion":
        try:  # companion's classes (TF's op errors and their traced forms) take a message
            return cls(message)
        except TypeError:
            pass
    if cls.__init__ is Exception.__init__ or cls in error_utils.KNOWN_STRING_CONSTRUCTOR_ERRORS:
        return cls(message)
    if cls is KeyError:
        return error_utils.MultilineMessageKeyError(message, error.ag_error_metadata.cause_message)
    return malt_api.StagingError(message)

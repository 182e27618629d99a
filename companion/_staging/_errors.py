"""The errors raised when Python needs the value of a tensor that only exists at run time."""

import os
import sys

import malt

import companion
from companion._core import _host_value, _tensor
from companion._core._errors import _shown_as
from companion._staging._needs_values import NeedsValues


class OperatorNotAllowedInGraphError(TypeError):
    """Python asked for the concrete value of a traced tensor (TensorFlow's error of this name)."""


class ValuesDecideShapeError(OperatorNotAllowedInGraphError, NeedsValues):
    """A traced tensor's value would decide a shape (a dataset's length): TF's
    OperatorNotAllowedInGraphError, and a `NeedsValues` so a top-level function runs eagerly."""


# TF's classes where it is not OperatorNotAllowedInGraphError; each also catches as that one
# (companion raised it for every case before): a traced tensor has no ``numpy`` attribute in TF
# (AttributeError); NumPy conversion and Variable.numpy() are NotImplementedError there.
SymbolicNumpyError = _shown_as("AttributeError", (AttributeError, OperatorNotAllowedInGraphError),
                               "numpy() of a traced tensor (TF's AttributeError).")
SymbolicArrayError = _shown_as("NotImplementedError", (NotImplementedError, OperatorNotAllowedInGraphError),
                               "A traced tensor converted to a NumPy array (TF's NotImplementedError).")
_CLASSES = {"numpy()": SymbolicNumpyError, "np.asarray()": SymbolicArrayError,
            "Variable.numpy()": SymbolicArrayError}


def traced_value_error(what, tensor):
    """Builds the error for ``what`` (e.g. ``"bool()"``) applied to a traced ``tensor``."""
    return _CLASSES.get(what, OperatorNotAllowedInGraphError)(
        f"{what} was called on a tensor whose value is only known when the compiled function "
        f"runs (shape={tensor.shape}, dtype={tensor.dtype.name}). Python cannot branch or loop on "
        "it while tracing. Write the condition as a plain `if`/`while`/`for` statement in a "
        "function converted by AutoGraph, use companion.cond/companion.where, or call "
        "companion.print to see the value at run time.")


# The tensor methods the user's code may call for a value live here (`_ENTRY_POINTS`); AutoGraph's
# frames (malt's, companion's converter) forward a converted call.
_TENSOR_FILES = (os.path.normcase(_tensor.__file__), os.path.normcase(_host_value.__file__))
_ENTRY_POINTS = ("numpy", "__array__")
_FORWARDING_DIRS = (os.path.normcase(os.path.dirname(malt.__file__) + os.sep),
                    os.path.normcase(os.path.join(os.path.dirname(companion.__file__), "autograph") + os.sep))
_COMPANION_DIR = os.path.normcase(os.path.dirname(companion.__file__) + os.sep)


def called_by_user_code():
    """Whether the tensor method running now (``numpy``, ``__array__``) was called by the user's
    code rather than companion's (`_called_by_user`)."""
    def outward(frame):
        while frame is not None:
            yield frame
            frame = frame.f_back

    return _called_by_user(outward(sys._getframe(1)))


def asked_by_user_code(error):
    """Whether ``error`` is the user's own code asking a traced tensor for a NumPy value
    (``x.numpy()``, ``np.asarray(x)``): TF's trace fails on that too. The same error raised by
    companion's own op code says companion needed a value TF's graph would not (a limitation)."""
    if not isinstance(error, (SymbolicNumpyError, SymbolicArrayError)):
        return False
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return _called_by_user(frames[::-1])


def _called_by_user(frames):
    """Whether, in ``frames`` (innermost first), the tensor's ``numpy``/``__array__`` was called from
    outside companion (AutoGraph's frames, which forward a converted call, are looked through)."""
    frames = iter(frames)
    for frame in frames:
        code = frame.f_code
        if code.co_name in _ENTRY_POINTS and os.path.normcase(code.co_filename) in _TENSOR_FILES:
            break
    else:
        return False
    for frame in frames:
        filename = os.path.normcase(frame.f_code.co_filename)
        if not filename.startswith(_FORWARDING_DIRS):
            return not filename.startswith(_COMPANION_DIR)
    return False

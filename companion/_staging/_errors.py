"""The errors raised when Python needs the value of a tensor that only exists at run time."""

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

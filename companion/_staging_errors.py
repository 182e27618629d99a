"""The error raised when Python needs the value of a tensor that only exists at run time."""


class OperatorNotAllowedInGraphError(TypeError):
    """Python asked for the concrete value of a traced tensor (TensorFlow's error of this name)."""


def traced_value_error(what, tensor):
    """Builds the error for ``what`` (e.g. ``"bool()"``) applied to a traced ``tensor``."""
    return OperatorNotAllowedInGraphError(
        f"{what} was called on a tensor whose value is only known when the compiled function "
        f"runs (shape={tensor.shape}, dtype={tensor.dtype.name}). Python cannot branch or loop on "
        "it while tracing. Write the condition as a plain `if`/`while`/`for` statement in a "
        "function converted by AutoGraph, use companion.cond/companion.where, or call "
        "companion.print to see the value at run time.")

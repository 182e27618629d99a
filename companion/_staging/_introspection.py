"""Questions a program can ask about tracing: `inside_function`, `is_symbolic_tensor`; and `tuple`,
TF's grouping of tensors (every tensor is computed before any is used: always so in companion)."""

from companion._core._context import state
from companion._core._convert import as_input
from companion._ops._creation import identity


def inside_function():
    """True while a `function` (or a strategy's ``run``) traces Python code, False eagerly.

    Example:
        >>> import companion as tf
        >>> tf.inside_function(), bool(tf.function(lambda: tf.inside_function())())
        (False, True)
    """
    return state.staging > 0


def is_symbolic_tensor(tensor):
    """True for a tensor being traced inside a `function` (it has no value yet), False otherwise."""
    return bool(getattr(tensor, "is_traced", False))


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001 - TensorFlow's name
    """The tensors, each through `identity` (TF groups them so all are computed first)."""
    return [None if t is None else identity(as_input(t)) for t in tensors]

"""Ops over lists of tensors: `identity_n`, `shape_n` and `parallel_stack`."""

from companion._core import _dtypes
from companion._core._context import state
from companion._ops._array import shape, stack
from companion._ops._creation import identity

__all__ = ["identity_n", "parallel_stack", "shape_n"]


def identity_n(input, name=None):  # noqa: A002 - TensorFlow's name
    """A list with an `identity` of each tensor in ``input``."""
    return [identity(t) for t in input]


def shape_n(input, out_type=_dtypes.int32, name=None):  # noqa: A002
    """A list with the `shape` of each tensor in ``input`` (int32 unless ``out_type`` says otherwise)."""
    return [shape(t, out_type=out_type) for t in input]


def parallel_stack(values, name="parallel_stack"):
    """`stack` along a new first axis, inside a `function` (TF's graph-only variant).

    Raises:
        RuntimeError: called eagerly, as in TF; use `stack` there.
    """
    if not state.staging:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution. Use "
                           "companion.stack(values, axis=0), or call it inside a companion.function.")
    return stack(values, axis=0)

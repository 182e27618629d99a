"""Gradient helpers of TF's top level: `grad_pass_through`, `recompute_grad`, `AggregationMethod`, and
`gradients`/`hessians` (graph-mode functions: TF itself refuses them eagerly)."""

import functools

from companion._core._context import state
from companion._ops._safe_math import stop_gradient


def grad_pass_through(f):
    """``f`` whose gradient is the identity: the forward value is ``f(x)``, the backward pass treats
    it as ``x`` (a straight-through estimator, e.g. through rounding).

    Example:
        >>> import companion as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.grad_pass_through(tf.round)(x * 1.4)
        >>> float(y), round(float(tape.gradient(y, x)), 4)
        (4.0, 1.4)
    """
    @functools.wraps(f)
    def through(x):
        return x + stop_gradient(f(x) - x)

    return through


def recompute_grad(f):
    """``f`` itself: TF recomputes its forward pass during backprop to save memory; XLA plans memory
    on its own in companion, so the values and gradients are the same."""
    @functools.wraps(f)
    def recomputed(*args, **kwargs):
        return f(*args, **kwargs)

    return recomputed


class AggregationMethod:
    """How TF sums the gradients reaching one tensor (a graph-building option; companion's tapes always
    add them, the same numbers)."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients="none"):
    """TF 1's symbolic gradients. Eagerly TF raises RuntimeError; companion does so everywhere (its
    functions are traced, not graphs a later call can differentiate): use `GradientTape`."""
    where = "inside a companion.function" if state.staging else "when eager execution is enabled"
    raise RuntimeError(f"tf.gradients is not supported {where}. Use tf.GradientTape instead: "
                       "with tf.GradientTape() as tape: y = f(x); tape.gradient(y, x).")


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians"):
    """TF 1's symbolic Hessians; as `gradients`, use nested `GradientTape`s (or tape.jacobian)."""
    where = "inside a companion.function" if state.staging else "when eager execution is enabled"
    raise RuntimeError(f"tf.hessians is not supported {where}. Use two nested tf.GradientTape blocks: "
                       "the inner one's gradient, then the outer tape's jacobian of it.")

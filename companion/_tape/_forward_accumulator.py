"""`ForwardAccumulator`: forward-mode derivatives (Jacobian-vector products) of what runs inside it.

It records like a persistent `GradientTape` watching its primals; `jvp` cuts the records between
the primals and a target out of it and re-runs them under ``jax.jvp`` as one compiled, cached
program (`_replay.compute_jvp`). The program is an `Op`, so a `GradientTape` or another
accumulator recording around the call differentiates it too (forward over backward gives
Hessian-vector products; backward over forward, gradients of directional derivatives).
"""

from companion._core import _nest
from companion._core._convert import convert_to_tensor
from companion._core._tensor import Tensor
from companion._tape import _replay
from companion._tape._gradient_tape import (
    GradientTape,
    UnconnectedGradients,
    _fill_unconnected,
    _is_float,
    _target_tensor,
)


class ForwardAccumulator:
    """Computes Jacobian-vector products of the ops run in its ``with`` block.

    Args:
        primals: a Tensor or Variable, or a nested structure of them, to perturb.
        tangents: the directions, in the structure of ``primals``, each with its primal's shape
            and dtype.

    Example:
        >>> import companion as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.5])) as acc:
        ...     y = tf.reduce_sum(3.0 * x * x)
        >>> float(acc.jvp(y))  # 6 * (1 * 1 + 2 * 0.5)
        12.0
    """

    def __init__(self, primals, tangents):
        flat_primals = _nest.flatten(primals)
        flat_tangents = _nest.flatten(tangents)
        if len(flat_primals) != len(flat_tangents):
            raise ValueError(f"ForwardAccumulator: `tangents` must have one tangent per primal: "
                             f"{len(flat_primals)} primal(s), {len(flat_tangents)} tangent(s). Pass them in "
                             f"the same structure. Received: primals={primals!r}, tangents={tangents!r}")
        self._pairs = []
        for primal, tangent in zip(flat_primals, flat_tangents):
            if not (isinstance(primal, Tensor) or getattr(primal, "_is_variable", False)):
                raise TypeError(f"ForwardAccumulator: every primal must be a Tensor or a Variable. Received: "
                                f"{primal!r} of type {type(primal).__name__}; convert it with "
                                "companion.constant, or pass the Variable itself.")
            if any(primal is seen for seen, _ in self._pairs):
                raise ValueError(f"ForwardAccumulator: {primal!r} was given as a primal twice. Give it once, "
                                 "with the sum of its tangents.")
            tangent = convert_to_tensor(tangent)
            if tangent.dtype != primal.dtype or list(tangent.shape) != list(primal.shape):
                raise ValueError(f"ForwardAccumulator: a tangent must have its primal's shape and dtype: "
                                 f"primal {primal.dtype.name}{list(primal.shape)}, tangent "
                                 f"{tangent.dtype.name}{list(tangent.shape)}. Received tangent: {tangent!r}")
            self._pairs.append((primal, tangent))
        self._tape = GradientTape(persistent=True, watch_accessed_variables=False)

    def __enter__(self):
        self._tape.__enter__()
        self._tape.watch([primal for primal, _ in self._pairs])
        return self

    def __exit__(self, *exc_info):
        self._tape.__exit__(*exc_info)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The tangents of ``primals`` (computed tensors, any nested structure): the derivative of
        each along the accumulator's tangents. ``None`` where no watched primal reaches it (zeros
        with ``unconnected_gradients="zero"``) and for tensors of a dtype that is not floating."""
        zero = UnconnectedGradients(getattr(unconnected_gradients, "value", unconnected_gradients))
        flat, treedef = _nest.tree_flatten(primals)
        targets = [_target_tensor(t, self._tape) for t in flat]
        float_targets = [t for t in targets if _is_float(t)]
        sources, tangents = [], []
        for primal, tangent in self._pairs:
            for read in self._tape._source_tensors(primal):
                sources.append(read)
                tangents.append(tangent)
        found = _replay.compute_jvp(self._tape._records, float_targets, sources, tangents) \
            if float_targets and sources else [None] * len(float_targets)
        by_id = dict(zip(map(id, float_targets), found))
        out = [by_id.get(id(t)) for t in targets]
        if zero is UnconnectedGradients.ZERO:
            out = [_fill_unconnected(g, t, "vjp", [t]) for g, t in zip(out, targets)]
        return _nest.tree_unflatten(treedef, out)

    def __repr__(self):
        return f"<companion.autodiff.ForwardAccumulator over {len(self._pairs)} primal(s)>"

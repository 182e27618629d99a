"""Gradient replay: a tape's recorded sub-graph turned into one compiled, cached JAX function.

`GradientTape.gradient` does not differentiate op by op. It cuts the records that lie
between the targets and the sources out of the tape, describes them as a hashable
*structure* (ops, static params, wiring, leaf shapes and dtypes), and looks that
structure up in a cache of compiled functions. Each compiled function re-runs the
recorded ops as one pure function under ``jax.vjp`` (or ``jax.jacrev`` for Jacobians),
so an eager training loop compiles its backward pass once and then runs it compiled.

The compiled function is itself an `Op`, so calling it is recorded on any outer tape
that is recording: that is how nested tapes give higher-order derivatives.
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._op import Op

_PLANS = {}
_PLAN_LIMIT = 1024


class Plan:
    """The compiled replay of one sub-graph structure.

    Calling ``plan.op(*leaf_sources, *constants, *cotangents)`` returns one gradient per
    differentiable source, in order.
    """

    def __init__(self, steps, n_slots, leaf_slots, n_diff_leaves, perturbed, target_slots,
                 target_avals, mode, n_cotangents):
        self.steps = steps
        self.n_slots = n_slots
        self.leaf_slots = leaf_slots
        self.n_diff_leaves = n_diff_leaves
        self.perturbed = perturbed  # (slot, shape, dtype) of intermediate sources
        self.target_slots = target_slots
        self.target_avals = target_avals
        self.mode = mode
        self.n_cotangents = n_cotangents
        self.op = Op(f"tape_{mode}", self._run)

    def _replay(self, leaves, perturbations):
        env = [None] * self.n_slots
        for slot, value in zip(self.leaf_slots, leaves):
            env[slot] = value
        bump = {slot: p for (slot, _, _), p in zip(self.perturbed, perturbations)}
        for op, params, in_slots, out_slots in self.steps:
            out = op.fn(*[env[s] for s in in_slots], **dict(params))
            outs = out if isinstance(out, (tuple, list)) else (out,)
            for slot, value in zip(out_slots, outs):
                env[slot] = value + bump[slot] if slot in bump else value
        return [env[s] for s in self.target_slots]

    def _run(self, *arrays):
        n_leaves = len(self.leaf_slots)
        diff = list(arrays[:self.n_diff_leaves])
        consts = list(arrays[self.n_diff_leaves:n_leaves])
        cotangents = list(arrays[n_leaves:])
        perts = [jnp.zeros(shape, dtype) for _, shape, dtype in self.perturbed]

        def forward(diff, perts):
            return self._replay(diff + consts, perts)

        if self.mode == "vjp":
            if not cotangents:
                cotangents = [jnp.ones(shape, dtype) for shape, dtype in self.target_avals]
            _, pullback = jax.vjp(forward, diff, perts)
            grads_diff, grads_perts = pullback(cotangents)
            return tuple(grads_diff) + tuple(grads_perts)
        jac_diff, jac_perts = jax.jacrev(lambda d, p: forward(d, p)[0], argnums=(0, 1))(diff, perts)
        jacs = tuple(jac_diff) + tuple(jac_perts)
        if self.mode == "batch_jacobian":
            jacs = tuple(_batch_diagonal(j, self.target_avals[0][0]) for j in jacs)
        return jacs


def _batch_diagonal(jac, target_shape):
    batch = target_shape[0]
    inner_t = target_shape[1:]
    inner_s = jac.shape[len(target_shape) + 1:]
    flat = jac.reshape((batch, int(np.prod(inner_t, dtype=np.int64)), batch, -1))
    index = jnp.arange(batch)
    return flat[index, :, index, :].reshape((batch,) + tuple(inner_t) + tuple(inner_s))


def compute(records, targets, sources, cotangents, mode):
    """Differentiates ``targets`` with respect to ``sources`` through ``records``.

    Args:
        records: the tape's (op, params, inputs, outputs) tuples, in execution order.
        targets: Tensors (float dtypes only).
        sources: Tensors to differentiate with respect to (float dtypes only).
        cotangents: Tensors matching ``targets``, or an empty list for ones.
        mode: "vjp", "jacobian" or "batch_jacobian".

    Returns:
        A list with one entry per source: a Tensor, or None when the source is not
        connected to any target.
    """
    kept, needed = _prune(records, targets)
    connected = [s for s in _unique(sources) if id(s) in needed]
    if not connected:
        return [None] * len(sources)
    produced = {id(o) for rec in kept for o in rec[3]}
    leaf_sources = [s for s in connected if id(s) not in produced]
    inner_sources = [s for s in connected if id(s) in produced]
    slots, leaves = _assign_slots(kept, targets, leaf_sources)
    plan = _plan_for(kept, slots, leaves, leaf_sources, inner_sources, targets, cotangents, mode)
    grads = plan.op(*leaves, *cotangents)
    by_id = dict(zip((id(s) for s in leaf_sources + inner_sources), grads))
    return [by_id.get(id(s)) for s in sources]


def _prune(records, targets):
    needed = {id(t) for t in targets}
    kept = []
    for rec in reversed(records):
        if any(id(o) in needed for o in rec[3]):
            kept.append(rec)
            needed.update(id(x) for x in rec[2])
    kept.reverse()
    return kept, needed


def _unique(tensors):
    seen = {}
    for t in tensors:
        seen.setdefault(id(t), t)
    return list(seen.values())


def _assign_slots(kept, targets, leaf_sources):
    """Numbers every tensor of the sub-graph; leaves are ordered sources first, then constants."""
    slots = {id(s): i for i, s in enumerate(leaf_sources)}
    leaves = list(leaf_sources)
    for _, _, inputs, outputs in kept:
        for x in inputs:
            if id(x) not in slots:
                slots[id(x)] = len(slots)
                leaves.append(x)
        for o in outputs:
            slots.setdefault(id(o), len(slots))
    for t in targets:
        if id(t) not in slots:
            slots[id(t)] = len(slots)
            leaves.append(t)
    return slots, leaves


def _plan_for(kept, slots, leaves, leaf_sources, inner_sources, targets, cotangents, mode):
    steps = tuple((op, tuple(params.items()), tuple(slots[id(x)] for x in inputs),
                   tuple(slots[id(o)] for o in outputs)) for op, params, inputs, outputs in kept)
    leaf_slots = tuple(slots[id(x)] for x in leaves)
    perturbed = tuple((slots[id(s)], s._value.shape, s._value.dtype) for s in inner_sources)
    target_slots = tuple(slots[id(t)] for t in targets)
    target_avals = tuple((t._value.shape, t._value.dtype) for t in targets)
    leaf_avals = tuple((x._value.shape, x._value.dtype) for x in leaves)
    key = (mode, steps, len(slots), leaf_slots, len(leaf_sources), perturbed, target_slots,
           target_avals, leaf_avals, len(cotangents))
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= _PLAN_LIMIT:
            _PLANS.clear()
        plan = Plan(steps, len(slots), leaf_slots, len(leaf_sources), perturbed, target_slots,
                    target_avals, mode, len(cotangents))
        _PLANS[key] = plan
    return plan

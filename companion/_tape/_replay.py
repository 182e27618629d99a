"""Gradient replay: a tape's recorded sub-graph turned into one compiled, cached JAX function.

`GradientTape.gradient` does not dispatch op by op. It cuts the records that lie
between the targets and the sources out of the tape, describes them as a hashable
*structure* (ops, static params, wiring, leaf shapes and dtypes), and looks that
structure up in a cache of compiled functions, so an eager training loop compiles its
backward pass once and then runs it compiled.

A gradient (``vjp``) plan takes the values the tape recorded, intermediates included, and
chains each recorded op's own ``jax.vjp`` at its recorded inputs, last op first: the
forward pass is not run again (XLA keeps only the part of each op's forward its backward
needs: nothing for a matmul, the op itself for an activation). Jacobian plans re-run the
recorded ops as one pure function under ``jax.jacrev``.

The compiled function is itself an `Op`, so calling it is recorded on any outer tape
that is recording: that is how nested tapes give higher-order derivatives.
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._context import state
from companion._core._op import Op
from companion._tape import _dependencies

_PLANS = {}
_PLAN_LIMIT = 1024


class Plan:
    """The compiled replay of one sub-graph structure, for Jacobians.

    Calling ``plan.op(*leaf_sources, *constants)`` returns one Jacobian per differentiable
    source, in order.
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
        perts = [jnp.zeros(shape, dtype) for _, shape, dtype in self.perturbed]

        def forward(diff, perts):
            return self._replay(diff + consts, perts)

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


class JvpPlan(Plan):
    """The compiled forward-mode pass of one sub-graph structure (`ForwardAccumulator.jvp`).

    Calling ``plan.op(*leaf_sources, *constants, *tangents)`` returns one tangent per target:
    the recorded ops re-run under ``jax.jvp``, the sources carrying the given tangents.
    """

    def _run(self, *arrays):
        n_diff, n_leaves = self.n_diff_leaves, len(self.leaf_slots)
        consts = list(arrays[n_diff:n_leaves])
        _, out = jax.jvp(lambda *diff: tuple(self._replay(list(diff) + consts, [])),
                         tuple(arrays[:n_diff]), tuple(arrays[n_leaves:]))
        return out


def compute_jvp(records, targets, sources, tangents):
    """Forward-mode derivatives of ``targets`` through ``records``: sources (tensors, each
    with its tangent in ``tangents``) perturbed together. One Tensor per target, or None for
    a target no source reaches (or of a dtype that is not floating)."""
    kept, needed = prune(records, targets)
    pairs = {}
    for source, tangent in zip(sources, tangents):
        if id(source) in needed and id(source) not in pairs:
            pairs[id(source)] = (source, tangent)
    if not pairs:
        return [None] * len(targets)
    leaf_sources = [source for source, _ in pairs.values()]
    slots, leaves = _assign_slots(kept, targets, leaf_sources)
    steps = tuple((op, tuple(params.items()), tuple(slots[id(x)] for x in inputs),
                   tuple(slots[id(o)] for o in outputs)) for op, params, inputs, outputs in kept)
    reached = _forward_reach(steps, {slots[id(s)] for s in leaf_sources})
    target_slots = tuple(slots[id(t)] for t in targets)
    leaf_slots = tuple(slots[id(x)] for x in leaves)
    target_avals = tuple((t._v.shape, t._v.dtype) for t in targets)
    key = ("jvp", steps, len(slots), leaf_slots, len(leaf_sources), target_slots, target_avals,
           tuple((x._v.shape, x._v.dtype) for x in leaves))
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= _PLAN_LIMIT:
            _PLANS.clear()
        plan = _PLANS[key] = JvpPlan(steps, len(slots), leaf_slots, len(leaf_sources), (), target_slots,
                                     target_avals, "jvp", 0)
    inputs = [*leaves, *(tangent for _, tangent in pairs.values())]
    _note_dependencies(plan.op, inputs)
    out = plan.op(*inputs)
    out = out if isinstance(out, (tuple, list)) else (out,)
    return [value if slot in reached else None for slot, value in zip(target_slots, out)]


def _forward_reach(steps, source_slots):
    """The slots whose values depend on a source through float-valued ops."""
    reached = set(source_slots)
    for op, _, in_slots, out_slots in steps:
        if op.output_deps is None:
            if not reached.isdisjoint(in_slots):
                reached.update(out_slots)
            continue
        for slot, used in zip(out_slots, op.output_deps):
            if any(in_slots[i] in reached for i in used):
                reached.add(slot)
    return reached


class VjpPlan:
    """The compiled reverse pass of one sub-graph structure, from the recorded values.

    Calling ``plan.op(*values, *cotangents)`` (``values``: the recorded tensors of
    ``value_slots``) returns one gradient per `reached` source slot, in order.
    """

    def __init__(self, steps, value_slots, source_slots, target_slots, target_avals, n_cotangents):
        self.steps = steps  # (op, params, in_slots, out_slots, active input positions), forward order
        self.value_slots = value_slots
        self.source_slots = source_slots
        self.target_slots = target_slots
        self.target_avals = target_avals
        self.n_cotangents = n_cotangents
        self.reached = _reached(steps, target_slots, source_slots)
        self.none_slots = frozenset()  # reached sources no gradient flowed to (set while `_run` traces)
        self.op = Op("tape_vjp", self._run)

    def _run(self, *arrays):
        n_values = len(self.value_slots)
        env = dict(zip(self.value_slots, arrays[:n_values]))
        cotangents = list(arrays[n_values:])
        if not cotangents:
            cotangents = [jnp.ones(shape, dtype) for shape, dtype in self.target_avals]
        cot = {}
        for slot, c in zip(self.target_slots, cotangents):
            _accumulate(cot, slot, c)
        for op, params, in_slots, out_slots, active in reversed(self.steps):
            out_cots = [cot.get(s) for s in out_slots]
            if all(c is None for c in out_cots):
                continue
            args = [env[s] for s in in_slots]
            kwargs = dict(params)

            def local(*values, args=args, active=active, fn=op.fn, kwargs=kwargs):
                full = list(args)
                for i, v in zip(active, values):
                    full[i] = v
                return fn(*full, **kwargs)

            out, pullback = jax.vjp(local, *[args[i] for i in active])
            flat_out, tree = jax.tree_util.tree_flatten(out)
            filled = [c if c is not None else _zero_cotangent(o) for c, o in zip(out_cots, flat_out)]
            _NONE_REPORTS.append((op.fn, set()))
            try:
                grads = pullback(jax.tree_util.tree_unflatten(tree, filled))
            finally:
                none = _NONE_REPORTS.pop()[1]
            for i, g in zip(active, grads):
                if i not in none:  # a custom gradient's None: nothing flows back along that input
                    _accumulate(cot, in_slots[i], g)
        results, none_slots = [], set()
        for slot, reached in zip(self.source_slots, self.reached):
            if reached:
                if slot not in cot:
                    none_slots.add(slot)
                results.append(cot[slot] if slot in cot else jnp.zeros_like(env[slot]))
        self.none_slots = frozenset(none_slots)
        return tuple(results)


CUSTOM_PREFIX = "custom_gradient:"  # the name of every `custom_gradient` op starts so
_NONE_REPORTS = []  # while `VjpPlan._run` runs a step's pullback: (the step op's fn, the set of its
# input positions its custom gradient answered None for). TF: no gradient flows back along them,
# so a source reached only that way gets None, not zeros. Only the step's own rule counts: a
# custom gradient inside a staged function's program gives zeros at the function's boundary.


def report_none_gradients(fn, positions):
    """Called by the custom gradient rule of the op running ``fn`` while it runs: its grad_fn
    returned None at ``positions``."""
    if _NONE_REPORTS and _NONE_REPORTS[-1][0] is fn:
        _NONE_REPORTS[-1][1].update(positions)


def _reached(steps, target_slots, source_slots):
    """Per source slot: whether a cotangent flows back to it (not through integers only: TF's
    None for a source whose only path to the target is, e.g., a cast to an integer dtype)."""
    reached = set(target_slots)
    for op, _, in_slots, out_slots, active in reversed(steps):
        if op.output_deps is None:
            if not reached.isdisjoint(out_slots):
                reached.update(in_slots[i] for i in active)
            continue
        for slot, used in zip(out_slots, op.output_deps):
            if slot in reached:
                reached.update(in_slots[i] for i in active if i in used)
    return tuple(s in reached for s in source_slots)


def _accumulate(cot, slot, value):
    cot[slot] = value if slot not in cot else cot[slot] + value


def _zero_cotangent(out):
    if jnp.issubdtype(out.dtype, jnp.inexact):
        return jnp.zeros(out.shape, out.dtype)
    return np.zeros(out.shape, jax.dtypes.float0)


def _inexact(tensor):
    dtype = tensor._v.dtype
    inexact = _INEXACT.get(dtype)
    if inexact is None:
        inexact = _INEXACT[dtype] = bool(jnp.issubdtype(dtype, jnp.inexact))
    return inexact


_INEXACT = {}


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
    kept, needed = prune(records, targets)
    connected = [s for s in _unique(sources) if id(s) in needed]
    if not connected:
        return [None] * len(sources)
    if mode == "vjp":
        return _compute_vjp(kept, connected, targets, sources, cotangents)
    produced = {id(o) for rec in kept for o in rec[3]}
    leaf_sources = [s for s in connected if id(s) not in produced]
    inner_sources = [s for s in connected if id(s) in produced]
    slots, leaves = _assign_slots(kept, targets, leaf_sources)
    plan = _plan_for(kept, slots, leaves, leaf_sources, inner_sources, targets, cotangents, mode)
    _note_dependencies(plan.op, [*leaves, *cotangents])
    grads = plan.op(*leaves, *cotangents)
    by_id = dict(zip((id(s) for s in leaf_sources + inner_sources), grads))
    if any(rec[0].name.startswith(CUSTOM_PREFIX) for rec in kept):
        # a custom gradient's None may cut a source off: TF's Jacobian is then None too, as the
        # gradient is (the Jacobian's replay runs as one program, so ask the gradient's)
        for s, g in zip(connected, _compute_vjp(kept, connected, targets, connected, [])):
            if g is None:
                by_id[id(s)] = None
    return [by_id.get(id(s)) for s in sources]


def _compute_vjp(kept, connected, targets, sources, cotangents):
    """`compute` for gradients: the recorded values go in, no op runs forward again."""
    slots = {}  # id(tensor) -> its slot now; an op may return its input tensor (an identity), so
    for s in connected:  # every output gets a fresh slot unless it is a source not yet produced
        slots.setdefault(id(s), len(slots))
    source_slots = tuple(slots[id(s)] for s in connected)
    active = set(source_slots)
    defined = set()
    n_slots = len(slots)
    steps = []
    value_slots = {}
    values = []
    for op, params, inputs, outputs in kept:
        in_slots = []
        for x in inputs:
            slot = slots.get(id(x))
            if slot is None:
                slot = slots[id(x)] = n_slots
                n_slots += 1
            defined.add(slot)
            in_slots.append(slot)
        out_slots = []
        for o in outputs:
            slot = slots.get(id(o))
            if slot is None or slot in defined:
                slot = slots[id(o)] = n_slots
                n_slots += 1
            defined.add(slot)
            out_slots.append(slot)
        live = tuple(i for i, slot in enumerate(in_slots) if slot in active)
        if not live:
            continue
        deps = op.output_deps
        for k, (o, slot) in enumerate(zip(outputs, out_slots)):
            if _inexact(o) and (deps is None or any(i in deps[k] for i in live)):
                active.add(slot)
        for x, slot in zip(inputs, in_slots):
            if slot not in value_slots:
                value_slots[slot] = len(values)
                values.append(x)
        steps.append((op, tuple(params.items()), tuple(in_slots), tuple(out_slots), live))
    for t in targets:
        if id(t) not in slots:
            slots[id(t)] = n_slots
            n_slots += 1
    target_slots = tuple(slots[id(t)] for t in targets)
    key = ("vjp", tuple(steps), tuple(value_slots), source_slots, target_slots,
           tuple((x._v.shape, x._v.dtype) for x in values),
           tuple((t._v.shape, t._v.dtype) for t in targets), len(cotangents))
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= _PLAN_LIMIT:
            _PLANS.clear()
        plan = VjpPlan(tuple(steps), tuple(value_slots), source_slots, target_slots,
                       tuple((t._v.shape, t._v.dtype) for t in targets), len(cotangents))
        _PLANS[key] = plan
    if not any(plan.reached):
        return [None] * len(sources)
    _note_dependencies(plan.op, [*values, *cotangents])
    grads = iter(plan.op(*values, *cotangents))
    by_id = {id(s): next(grads) for s, reached in zip(connected, plan.reached) if reached}
    for s, slot in zip(connected, source_slots):  # (known once the plan has traced: the call above)
        if slot in plan.none_slots:
            by_id[id(s)] = None
    return [by_id.get(id(s)) for s in sources]


def check_registered(records, targets):
    """TF's LookupError when the gradient of ``targets`` must pass through an op TF registers no
    gradient for (its `Op.differentiable` names the TF op type). As TF's tape, the walk back from
    the targets goes on through floating inputs only (an integer tensor carries no gradient)."""
    needed = {id(t) for t in targets}
    for op, _, inputs, outputs in reversed(records):
        if needed.isdisjoint(map(id, outputs)):
            continue
        if op.differentiable.__class__ is str:
            raise LookupError(f"gradient registry has no entry for: {op.differentiable}")
        needed.update(id(x) for x in inputs if _inexact(x))


def prune(records, targets):
    """The records on a path to ``targets`` (in order), and the ids of every tensor they need."""
    needed = {id(t) for t in targets}
    kept = []
    for rec in reversed(records):
        outputs = rec[3]
        if (id(outputs[0]) in needed) if len(outputs) == 1 else not needed.isdisjoint(map(id, outputs)):
            kept.append(rec)
            deps = rec[0].output_deps
            if deps is None:
                needed.update(map(id, rec[2]))
            else:  # a gradient replay: only the inputs the needed outputs use
                used = [i for o, uses in zip(outputs, deps) if id(o) in needed for i in uses]
                needed.update(id(rec[2][i]) for i in used)
    kept.reverse()
    return kept, needed


def _note_dependencies(op, inputs):
    """Before a replay runs while an outer tape records it: which inputs each of its outputs uses
    (once per plan), so that the outer tape connects each gradient only to those."""
    if state.tapes and op.output_deps is None:
        op.output_deps = _dependencies.output_dependencies(op.fn, [x._v for x in inputs])


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
    perturbed = tuple((slots[id(s)], s._v.shape, s._v.dtype) for s in inner_sources)
    target_slots = tuple(slots[id(t)] for t in targets)
    target_avals = tuple((t._v.shape, t._v.dtype) for t in targets)
    leaf_avals = tuple((x._v.shape, x._v.dtype) for x in leaves)
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

"""`Strategy.run`'s staging: trace ``fn``, run it once per replica under ``shard_map``.

The replica function is staged like `companion.function` stages (Variables it reads become
inputs, Variables it writes become outputs), with the mesh axis bound so collectives trace: once
per trace of an enclosing function, and on every eager call of a mirrored strategy (TF runs its
Python each time; the compiled program is reused while the trace is the same, `program_key`).
The staged program runs once per replica under ``shard_map``: per-replica arguments are split
along axis 0, everything else is replicated. Written Variables come back replicated: metric
state (``_metric_state``) and Variables with ``aggregation=SUM`` as the old value plus the sum
of every replica's change (a metric in Keras fit's step, staged inside ``global_metric_reads``,
summed its changes as it was updated and comes back as it is), ``ONLY_FIRST_REPLICA`` as replica
0's value, any other float (and ``MEAN``) as the mean over replicas (identical values stay
identical: the optimizer has already summed the gradients), integers as they are.
"""

import contextlib

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

from companion._core import _nest, _tensor_names
from companion._core._context import state as context_state
from companion._core._convert import to_device
from companion._core._device import graph_device_scope, settle_on_simulated_devices
from companion._core._tensor import Tensor
from companion._core._variable_aggregation import VariableAggregation
from companion._staging import Trace, leaf_key, stage
from companion.distribute._values import PerReplica

AXIS = "replica"


class ReplicaProgram:
    """One traced signature of a replica function, compiled with ``shard_map``."""

    def __init__(self, strategy, fn, args, kwargs, compiled=None):
        self._strategy = strategy
        leaves, self._treedef = _flatten((args, kwargs))
        self._kinds = [_kind(x) for x in leaves]
        self._static = [None if k else x for k, x in zip(self._kinds, leaves)]
        self._masked = any(isinstance(x, PerReplica) and x._mask is not None for x in leaves)
        self._fn = fn
        self._trace(leaves)
        self._compile(compiled)

    # -- tracing ---------------------------------------------------------------------------------
    def _trace(self, leaves):
        """Stages ``fn`` once on one replica's abstract arguments with the replica axis bound;
        Variables it needs (such as optimizer slots) are created here, once."""
        replicas = self._strategy.num_replicas_in_sync
        avals = [_local_aval(x, replicas) for x, k in zip(leaves, self._kinds) if k]
        if self._masked:
            avals.append(jax.ShapeDtypeStruct((_batch_of(leaves) // replicas,), jnp.float32))
        trace = Trace(allow_create=True, owner=self._fn)
        self._metrics_summed = bool(context_state.metric_reads_global)
        self._outer = leaves  # while traced inside a function: the graph names of the arguments
        try:
            self._staged = stage(self._replica_call, avals, trace, axis_env=[(AXIS, replicas)])
        finally:
            self._outer = None
        self.variables = self._staged.variables
        self._written = self._staged.written
        self._n_out = self._staged.n_out

    def _replica_call(self, *arrays):
        """Runs ``fn`` on one replica's arrays (while staged); its flat output arrays."""
        mask = Tensor(arrays[-1]) if self._masked else None
        args, kwargs = self._rebuild(arrays)
        context = self._strategy._replica_context_class(self._strategy, AXIS, mask,
                                                        metrics_summed_on_update=self._metrics_summed)
        with context, self._replica_graph(arrays):
            result = self._fn(*args, **kwargs)
        outs, self._out_tree = _flatten(result)
        self._out_none = [o is None for o in outs]
        outs = [_array_of(o) for o in outs if o is not None]
        self._out_mirrored = [id(o) in context.merged for o in outs]
        return outs

    def _replica_graph(self, arrays):
        """Inside a function's trace: the replica's tensors keep the names of the arguments they stand
        for (TF's replica function reads the function's ``x:0``), and its ops record the first
        replica's device, as TF's graph does (``device=/job:localhost/.../device:CPU:0``)."""
        if _tensor_names.active() is None:
            return contextlib.nullcontext()
        outer = [x for x, k in zip(self._outer, self._kinds) if k]
        for inner, x in zip(arrays, outer):
            if isinstance(x, Tensor) and _tensor_names.graph_name(x._v) is not None:
                _tensor_names.alias(inner, x._v)
        return graph_device_scope(self._strategy.extended.worker_devices[0])

    def _rebuild(self, arrays):
        filled, it = [], iter(arrays)
        for kind, static in zip(self._kinds, self._static):
            filled.append(Tensor(next(it)) if kind else static)
        return jax.tree_util.tree_unflatten(self._treedef, filled)

    # -- compiling ----------------------------------------------------------------------------
    def _compile(self, compiled=None):
        """The staged program run once per replica under ``shard_map`` (not traced again).

        ``compiled`` (a `CompiledPrograms`): where a program staged before from the same trace
        (`program_key`) is found and reused, and this one is kept, so a replica function traced
        again on every eager call compiles only when what it traced changed."""
        key = self.program_key() if compiled is not None else None
        run = compiled.get(key) if key is not None else None
        if run is None:
            run = self._jitted()
            if key is not None:
                compiled.put(key, run)
        self._run = run

    def program_key(self):
        """What the compiled program depends on, hashable: the staged program's text, which
        Variables fill its constant slots and which it writes, its other constants by value, and
        how the arguments are laid out. Two traces with equal keys compute the same function."""
        staged = self._staged
        feeds = dict(staged.feed_slots)
        consts = tuple(("variable", id(owner)) if owner is not None
                       else ("feed", id(feeds[slot])) if slot in feeds else _value_key(value)
                       for slot, (value, owner) in enumerate(zip(staged.closed.consts, staged.owners)))
        return (str(staged.closed.jaxpr), consts, tuple(map(id, self._written)), tuple(self._kinds),
                self._masked, self._metrics_summed)

    def _jitted(self):
        n_vars, n_out = len(self.variables), self._n_out
        arg_specs = [P(AXIS) if k in ("split", "stacked") else P() for k in self._kinds if k]
        stacked = [k == "stacked" for k in self._kinds if k] + [False] * self._masked
        arg_specs += [P(AXIS)] if self._masked else []
        in_specs = (P(),) * n_vars + tuple(arg_specs)
        out_specs = (P(AXIS),) * n_out + (P(),) * len(self._written)
        staged = self._staged

        def body(*arrays):
            olds = arrays[:n_vars]
            local = [a[0] if one else a for a, one in zip(arrays[n_vars:], stacked)]
            outs = staged.evaluate(local, olds)
            user, written = outs[:n_out], outs[n_out:]
            old_of = dict(zip(map(id, self.variables), olds))
            synced = [_synchronized(v, new, old_of.get(id(v)), self._metrics_summed)
                      for v, new in zip(self._written, written)]
            return tuple(jnp.expand_dims(o, 0) for o in user) + tuple(synced)

        mapped = jax.shard_map(body, mesh=self._strategy._mesh, in_specs=in_specs, out_specs=out_specs,
                               check_vma=False)
        return jax.jit(mapped)

    # -- calling ------------------------------------------------------------------------------
    def __call__(self, args, kwargs):
        leaves = _flatten((args, kwargs))[0]
        arrays = [v._value for v in self.variables]
        arrays += [_global_array(x) for x, k in zip(leaves, self._kinds) if k]
        if self._masked:
            arrays.append(next(x._mask for x in leaves if isinstance(x, PerReplica)))
        outs = settle_on_simulated_devices(self._run(*arrays))
        for var, value in zip(self._written, outs[self._n_out:]):
            var._set_value(value)
        replicas = self._strategy.num_replicas_in_sync
        results = iter([Tensor(o[0]) if replicas == 1 or mirrored else PerReplica(o, replicas, stacked=True)
                        for o, mirrored in zip(outs[:self._n_out], self._out_mirrored)])
        leaves = [None if none else next(results) for none in self._out_none]
        return _nest.tree_unflatten(self._out_tree, leaves)


class CompiledPrograms:
    """A strategy's compiled replica programs by `ReplicaProgram.program_key`, the newest `SIZE`."""

    SIZE = 64

    def __init__(self):
        self._programs = {}

    def get(self, key):
        run = self._programs.pop(key, None)
        if run is not None:
            self._programs[key] = run  # the most recently used is the last to go
        return run

    def put(self, key, run):
        if len(self._programs) >= self.SIZE:
            del self._programs[next(iter(self._programs))]
        self._programs[key] = run


_BY_VALUE_BYTES = 1 << 20  # a traced constant up to this size is compared by value, larger ones by identity


def _value_key(value):
    """A constant of a staged program by value (shape, dtype, bytes); a large one by identity (the
    program holding it keeps it alive, so no other object can take its id meanwhile)."""
    array = np.asarray(value)
    if array.nbytes > _BY_VALUE_BYTES or array.dtype == object:
        return ("object", id(value))
    return ("value", array.shape, array.dtype.str, array.tobytes())


def signature(fn, args, kwargs):
    """The cache key of a call: the function, the argument structure, shapes and dtypes."""
    leaves, treedef = _flatten((args, kwargs))
    parts = []
    for x in leaves:
        kind = _kind(x)
        if kind:
            array = _global_array(x)
            parts.append((kind, array.shape, str(array.dtype), isinstance(x, PerReplica)
                          and x._mask is not None))
        else:
            parts.append(leaf_key(x))
    return fn, treedef, tuple(parts), bool(context_state.metric_reads_global)


def _synchronized(variable, new, old, metrics_summed):
    if jax.lax.axis_size(AXIS) == 1:
        return new
    if metrics_summed and getattr(variable, "_metric_state", False):
        return new  # summed over the replicas as it was updated (Keras fit's step)
    aggregation = getattr(variable, "_aggregation", None)  # (a metric's state: SUM)
    if aggregation == VariableAggregation.SUM and old is not None:
        return old + jax.lax.psum(new - old, AXIS)
    if aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
        return jax.lax.all_gather(new, AXIS)[0]
    if jnp.issubdtype(new.dtype, jnp.floating):  # NONE and MEAN
        return jax.lax.pmean(new, AXIS)
    return new


def _flatten(structure):
    """`companion._core._nest.tree_flatten`, with each `PerReplica` one value (a replica's share)."""
    return jax.tree_util.tree_flatten(structure, is_leaf=lambda x: _nest.is_value(x)
                                      or isinstance(x, PerReplica))


def _kind(x):
    if isinstance(x, PerReplica):
        return "stacked" if x._stacked else "split"
    if isinstance(x, Tensor) or getattr(x, "_is_variable", False) or hasattr(x, "__array__"):
        return "replicated"
    return None


def _global_array(x):
    if isinstance(x, PerReplica):
        return x._array
    if isinstance(x, Tensor) or getattr(x, "_is_variable", False):
        return x._value
    return to_device(x) if isinstance(x, np.ndarray) else jnp.asarray(x)


def _local_aval(x, replicas):
    array = _global_array(x)
    shape = tuple(array.shape)
    if isinstance(x, PerReplica):  # a replica's share; one row of stacked results
        shape = shape[1:] if x._stacked else (shape[0] // replicas,) + shape[1:]
    return jax.ShapeDtypeStruct(shape, array.dtype)


def _batch_of(leaves):
    return next(x._array.shape[0] for x in leaves if isinstance(x, PerReplica) and x._mask is not None)


def _array_of(value):
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        return value._value
    if isinstance(value, PerReplica):
        raise TypeError("A function run by Strategy.run returned a PerReplica value; inside a replica, "
                        "return that replica's tensors.")
    return to_device(value) if isinstance(value, np.ndarray) else jnp.asarray(value)

"""`ReplicaContext`, and entering a strategy's scope; the state itself is the core's context."""

import jax
import jax.numpy as jnp

from companion._core._context import current_replica, current_strategy, state
from companion._core._convert import as_input, is_tensor
from companion._core._nest import map_structure
from companion._core._tensor import Tensor
from companion._core._tensor_names import named
from companion.distribute._collectives import all_reduce
from companion.distribute._values import PerReplica


def push_strategy(strategy):
    state.strategies.append(strategy)


def pop_strategy():
    state.strategies.pop()


class ReplicaContext:
    """What replica code can ask inside `Strategy.run`, TF's ``tf.distribute.ReplicaContext``.

    ``replica_id_in_sync_group`` is a traced int32 (each replica sees its own index);
    `all_reduce` combines a value over all replicas with an XLA collective.
    """

    def __init__(self, strategy, axis_name=None, example_mask=None, metrics_summed_on_update=False):
        self.strategy = strategy
        self._axis = axis_name
        self.example_mask = example_mask  # 1.0 for real examples, 0.0 for padding
        # True in Keras fit's step (`global_metric_reads`): metric updates are all-reduced at once
        self.metrics_summed_on_update = metrics_summed_on_update
        self.merged = set()  # ids of the arrays `merge_call` returned: the same on every replica

    @property
    def num_replicas_in_sync(self):
        return self.strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        if self._axis is None:
            return Tensor(jnp.int32(0))

        return named(Tensor(jax.lax.axis_index(self._axis).astype("int32")), "replica_id_in_sync_group")

    def all_reduce(self, reduce_op, value):
        """``value`` summed (``ReduceOp.SUM``) or averaged (``MEAN``) over all replicas."""
        return all_reduce(reduce_op, value, self._axis)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Calls ``merge_fn(strategy, *args, **kwargs)`` once in cross-replica context, the way TF
        hands a replica's values to code that sees all replicas: each tensor in ``args`` and
        ``kwargs`` arrives as a `PerReplica` of every replica's value (one replica: as it is), so
        ``strategy.reduce`` and friends combine them; every replica gets ``merge_fn``'s result."""
        kwargs = kwargs or {}
        if self._axis is not None and jax.lax.axis_size(self._axis) > 1:
            args, kwargs = map_structure(self._gathered, (args, kwargs))
        inside = bool(state.replicas) and state.replicas[-1] is self
        if inside:
            state.replicas.pop()
        try:
            result = merge_fn(self.strategy, *args, **kwargs)
        finally:
            if inside:
                state.replicas.append(self)
        # what every replica got from one merge is one value (TF regroups it as mirrored)
        self.merged.update(id(getattr(x, "_value", x)) for x in jax.tree_util.tree_leaves(result))
        return result

    def _gathered(self, value):
        """A tensor ``value`` of this replica as the `PerReplica` of all replicas' values."""
        if not is_tensor(value):
            return value
        stacked = jax.lax.all_gather(as_input(value)._value, self._axis)
        return PerReplica(stacked, int(jax.lax.axis_size(self._axis)), stacked=True)

    def __enter__(self):
        state.replicas.append(self)
        return self

    def __exit__(self, *exc):
        state.replicas.pop()


class _MirroredReplicaContext(ReplicaContext):
    """The replica context of a mirrored strategy's replicas (TF's class of that name)."""


class _OneDeviceReplicaContext(ReplicaContext):
    """The replica context inside `OneDeviceStrategy.run` (TF's class of that name)."""


class _DefaultReplicaContext(ReplicaContext):
    """The replica context in effect outside `Strategy.run` and any strategy's scope (TF's class
    of that name): one replica whose ``replica_id_in_sync_group`` is the Python int 0."""

    @property
    def replica_id_in_sync_group(self):
        return 0


__all__ = ["ReplicaContext", "current_replica", "current_strategy", "pop_strategy", "push_strategy"]

"""companion.distribute: TensorFlow's tf.distribute on XLA collectives over a device mesh.

Internal surface for other companion packages: ``_tpu_system`` (``tf.config``'s and
``tf.tpu.experimental``'s TPU functions).

Example:
    >>> import companion as tf
    >>> strategy = tf.distribute.get_strategy()
    >>> strategy.num_replicas_in_sync, tf.distribute.has_strategy()
    (1, False)
"""

import functools

from companion.distribute import _context, cluster_resolver
from companion.distribute._context import ReplicaContext, _DefaultReplicaContext
from companion.distribute._coordinator import ClusterCoordinator, PerWorkerValues, RemoteValue
from companion.distribute._distributed_dataset import (
    DistributedDataset,
    DistributedIterator,
    InputContext,
)
from companion.distribute._input_options import InputOptions, InputReplicationMode
from companion.distribute._launch import launch
from companion.distribute._local_cluster import create_local_cluster
from companion.distribute._mirrored_variable import MirroredVariable
from companion.distribute._parameter_server_strategy import ParameterServerStrategy
from companion.distribute._partitioners import partitioners
from companion.distribute._ps_server import Server
from companion.distribute._reduce_op import ReduceOp
from companion.distribute._strategies import (
    CentralStorageStrategy,
    CrossDeviceOps,
    HierarchicalCopyAllReduce,
    MirroredStrategy,
    MultiWorkerMirroredStrategy,
    NcclAllReduce,
    OneDeviceStrategy,
    ReductionToOneDevice,
    TPUStrategy,
    _DefaultDistributionStrategy,
)
from companion.distribute._strategy import Strategy
from companion.distribute._values import PerReplica, ValueContext


def get_strategy():
    """The strategy in scope, or the default one-replica strategy."""
    current = _context.current_strategy()
    if current is not None:
        return current
    return _default_strategy()


def has_strategy():
    """Whether a (non-default) strategy's scope is active (also inside its `Strategy.run`)."""
    current = _context.current_strategy()
    return current is not None and not isinstance(current, _DefaultDistributionStrategy)


def in_cross_replica_context():
    """True in a (non-default) strategy's scope outside its `Strategy.run`; False inside `run`
    and outside any scope (where the default replica context is in effect), as in TF."""
    return _context.current_replica() is None and has_strategy()


def get_replica_context():
    """The replica context inside `Strategy.run`; in a strategy's scope outside it, None; outside
    any scope, the default strategy's `_DefaultReplicaContext` (replica 0 of 1)."""
    replica = _context.current_replica()
    if replica is not None:
        return replica
    return None if has_strategy() else _default_replica_context()


@functools.cache
def _default_strategy():
    return _DefaultDistributionStrategy()


@functools.cache
def _default_replica_context():
    return _DefaultReplicaContext(_default_strategy())


class _coordinator_namespace:  # noqa: N801 (TF's namespace)
    """``tf.distribute.experimental.coordinator``."""

    ClusterCoordinator = ClusterCoordinator
    RemoteValue = RemoteValue
    PerWorkerValues = PerWorkerValues


class experimental:  # noqa: N801 (TF's namespace)
    """``tf.distribute.experimental``: the older names of multi-worker and central storage, and
    parameter-server training (with companion's `create_local_cluster`)."""

    MultiWorkerMirroredStrategy = MultiWorkerMirroredStrategy
    CentralStorageStrategy = CentralStorageStrategy
    TPUStrategy = TPUStrategy
    ParameterServerStrategy = ParameterServerStrategy
    coordinator = _coordinator_namespace
    partitioners = partitioners
    create_local_cluster = staticmethod(create_local_cluster)
    ValueContext = ValueContext


__all__ = [
    "CentralStorageStrategy", "CrossDeviceOps", "DistributedDataset", "DistributedIterator",
    "HierarchicalCopyAllReduce", "InputContext", "InputOptions", "InputReplicationMode", "MirroredStrategy",
    "MirroredVariable",
    "MultiWorkerMirroredStrategy", "NcclAllReduce", "OneDeviceStrategy", "ParameterServerStrategy",
    "PerReplica", "ReduceOp", "ReductionToOneDevice", "ReplicaContext", "Server", "Strategy", "TPUStrategy",
    "cluster_resolver",
    "experimental", "get_replica_context", "get_strategy", "has_strategy",
    "in_cross_replica_context", "launch",
]

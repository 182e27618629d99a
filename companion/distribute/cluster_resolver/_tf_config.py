"""``TFConfigClusterResolver``: the cluster and this process's task, read from ``TF_CONFIG``."""

from __future__ import annotations

import os
from collections.abc import Mapping

import jax

from companion.distribute.cluster_resolver._cluster_spec import ClusterSpec
from companion.distribute.cluster_resolver._tf_config_parse import parse_tf_config


class TFConfigClusterResolver:
    """Reads the cluster and this process's task from the ``TF_CONFIG`` environment variable.

    ``TF_CONFIG`` is JSON naming every task's ``"host:port"`` and this process's task::

        {"cluster": {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"]},
         "task": {"type": "worker", "index": 0}}

    companion supports the ``chief`` and ``worker`` jobs of ``MultiWorkerMirroredStrategy``
    and the ``chief``, ``worker`` and ``ps`` jobs of ``ParameterServerStrategy`` (not
    ``evaluator``). Unlike TensorFlow, the value is read and checked once,
    when the resolver is made, and a bad value raises ``ValueError`` naming the field at
    fault. Without ``TF_CONFIG`` the cluster is this one local process.

    Each task is one JAX process: `process_id`, `num_processes` and `coordinator_address`
    give the arguments of ``jax.distributed.initialize``. The chief is process 0 and the
    coordinator; without a chief, worker 0 is.

    Args:
        task_type: this process's job, instead of ``TF_CONFIG['task']['type']``.
        task_id: this process's index in its job, instead of ``TF_CONFIG['task']['index']``.
        rpc_layer: the protocol `master` puts before an address (``"grpc"``); default
            ``TF_CONFIG['rpc_layer']`` if present.
        environment: TensorFlow's deployment environment string; default
            ``TF_CONFIG['environment']`` if present. Kept for compatibility only.
        tf_config: (companion only) the ``TF_CONFIG`` value to use instead of the environment
            variable: JSON text or a dict.

    Example:
        >>> from companion.distribute.cluster_resolver import TFConfigClusterResolver
        >>> resolver = TFConfigClusterResolver(tf_config={
        ...     "cluster": {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"]},
        ...     "task": {"type": "worker", "index": 1}})
        >>> resolver.task_type, resolver.task_id
        ('worker', 1)
        >>> resolver.cluster_spec().num_tasks("worker")
        2
        >>> resolver.process_id(), resolver.num_processes(), resolver.coordinator_address()
        (2, 3, 'host0:2222')
    """

    def __init__(self, task_type: str | None = None, task_id: int | None = None, rpc_layer: str | None = None,
                 environment: str | None = None, *, tf_config: str | Mapping | None = None):
        value = os.environ.get("TF_CONFIG") if tf_config is None else tf_config
        self._config = parse_tf_config(value, task_type, task_id, rpc_layer, environment)
        self._cluster = ClusterSpec(self._config.cluster)

    @property
    def task_type(self) -> str | None:
        """This process's job (``'chief'`` or ``'worker'``); None without ``TF_CONFIG``."""
        return self._config.task_type

    @property
    def task_id(self) -> int | None:
        """This process's index in its job; None without ``TF_CONFIG``."""
        return self._config.task_id

    @property
    def rpc_layer(self) -> str | None:
        """The protocol `master` puts before an address, if any."""
        return self._config.rpc_layer

    @property
    def environment(self) -> str | None:
        """TensorFlow's deployment environment string, if any."""
        return self._config.environment

    def cluster_spec(self) -> ClusterSpec:
        """The cluster's jobs and addresses; empty without ``TF_CONFIG``."""
        return ClusterSpec(self._cluster)

    def master(self, task_type: str | None = None, task_id: int | None = None,
               rpc_layer: str | None = None) -> str:
        """The address of a task (default: this one), after ``rpc_layer://``; ``''`` without a cluster."""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        if not self._cluster or task_type is None or task_id is None:
            return ""
        address = self._cluster.task_address(task_type, task_id)
        rpc_layer = rpc_layer or self.rpc_layer
        return f"{rpc_layer}://{address}" if rpc_layer else address

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict[str, int]:
        """This host's accelerators by kind, e.g. ``{'GPU': 2}``; ``{}`` on a CPU-only host.

        Like TensorFlow, this counts the local devices, whatever task is asked about.
        """
        devices = jax.local_devices()
        kind = {"gpu": "GPU", "tpu": "TPU"}.get(devices[0].platform)
        return {kind: len(devices)} if kind else {}

    def num_processes(self) -> int:
        """How many processes the cluster has: its chief and workers (1 without ``TF_CONFIG``)."""
        return sum(self._cluster.num_tasks(job) for job in self._cluster.jobs) or 1

    def process_id(self) -> int:
        """This process's JAX process index: the chief is 0, then the workers in order."""
        if not self._cluster:
            return 0
        if self.task_type == "chief":
            return 0
        return self.task_id + (1 if "chief" in self._cluster.jobs else 0)

    def coordinator_address(self) -> str | None:
        """The ``"host:port"`` of process 0 (the chief, else worker 0); None without ``TF_CONFIG``."""
        if not self._cluster:
            return None
        job = "chief" if "chief" in self._cluster.jobs else "worker"
        return self._cluster.task_address(job, 0)

    def __repr__(self) -> str:
        return (f"TFConfigClusterResolver(task_type={self.task_type!r}, task_id={self.task_id!r}, "
                f"cluster={self._cluster.as_dict()!r})")

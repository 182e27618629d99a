"""Connecting to and starting the TPU system: ``experimental_connect_to_cluster``, ``initialize_tpu_system``.

JAX starts the TPUs of its host by itself the first time they are used, so on a TPU host
these functions only check that the TPUs are there and describe them; on any other host
they raise the same ``ValueError`` as `TPUClusterResolver`.
"""

from __future__ import annotations

from dataclasses import dataclass

import jax

from companion.distribute.cluster_resolver._tpu import TPUClusterResolver, local_tpu_devices


@dataclass(frozen=True)
class Topology:
    """The TPU system's shape, as `initialize_tpu_system` found it (TF's ``tf.tpu.experimental.Topology``).

    Attributes:
        num_tasks: how many hosts (JAX processes) share the TPU system.
        num_tpus_per_task: how many TPU devices (cores) each host has.
        devices: this host's TPU devices, as ``jax.Device`` objects.

    Example:
        >>> from companion.distribute._tpu_system import Topology
        >>> Topology(num_tasks=1, num_tpus_per_task=8, devices=()).num_tpus_per_task
        8
    """

    num_tasks: int
    num_tpus_per_task: int
    devices: tuple


def initialize_tpu_system(cluster_resolver: TPUClusterResolver | None = None) -> Topology:
    """Checks that this host has TPUs and returns their `Topology`.

    Args:
        cluster_resolver: a `TPUClusterResolver`; default: a new one.

    Raises:
        ValueError: this host has no TPU, or ``cluster_resolver`` is not a `TPUClusterResolver`.

    Example:
        >>> from companion.distribute._tpu_system import initialize_tpu_system
        >>> from companion.distribute.cluster_resolver import TPUClusterResolver
        >>> try:
        ...     resolver = TPUClusterResolver()
        ...     topology = initialize_tpu_system(resolver)
        ...     found = topology.num_tpus_per_task > 0
        ... except ValueError:  # no TPU on this host: use the default strategy
        ...     found = False
        >>> found in (True, False)
        True
    """
    resolver = TPUClusterResolver() if cluster_resolver is None else cluster_resolver
    _check_resolver("initialize_tpu_system", resolver)
    devices = tuple(local_tpu_devices("initialize_tpu_system"))
    return Topology(num_tasks=jax.process_count(), num_tpus_per_task=len(devices), devices=devices)


def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name: str = "localhost",
                                    task_index: int = 0, protocol: str | None = None,
                                    make_master_device_default: bool = True,
                                    cluster_device_filters=None) -> None:
    """Checks that ``cluster_spec_or_resolver`` is this host's TPUs; there is nothing else to connect to.

    TensorFlow connects the eager runtime to remote servers here. JAX runs on the TPUs of
    its own host, so companion only accepts a `TPUClusterResolver`; the other arguments are
    accepted for compatibility and ignored. Multi-worker training over ``TF_CONFIG`` is set
    up by ``MultiWorkerMirroredStrategy`` instead.

    Raises:
        ValueError: this host has no TPU, or the argument is not a `TPUClusterResolver`.

    Example:
        >>> from companion.distribute._tpu_system import experimental_connect_to_cluster
        >>> from companion.distribute.cluster_resolver import TPUClusterResolver
        >>> try:
        ...     experimental_connect_to_cluster(TPUClusterResolver())
        ...     connected = True
        ... except ValueError:  # no TPU on this host
        ...     connected = False
        >>> connected in (True, False)
        True
    """
    _check_resolver("experimental_connect_to_cluster", cluster_spec_or_resolver)
    local_tpu_devices("experimental_connect_to_cluster")


def _check_resolver(caller: str, resolver) -> None:
    if not isinstance(resolver, TPUClusterResolver):
        raise ValueError(f"{caller} accepts only a TPUClusterResolver: companion connects to the TPUs of "
                         f"this host and to nothing else. For multi-worker training from TF_CONFIG, create a "
                         f"MultiWorkerMirroredStrategy instead. Received: {resolver!r}")

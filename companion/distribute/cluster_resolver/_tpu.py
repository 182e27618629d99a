"""``TPUClusterResolver``: the TPU devices attached to this host, or a clear error when there are none."""

from __future__ import annotations

import jax

from companion.distribute.cluster_resolver._cluster_spec import ClusterSpec


class TPUClusterResolver:
    """Finds the TPUs attached to this host (TensorFlow's ``TPUClusterResolver``).

    JAX drives the TPUs of the host it runs on (a TPU VM, or a Colab / Kaggle TPU runtime),
    so ``tpu``, ``zone`` and ``project`` name nothing to connect to: they are accepted for
    compatibility with course code and kept as attributes. On a host without TPUs this
    raises ``ValueError``, which the course labs catch to fall back to the default strategy.

    Args:
        tpu: TensorFlow's TPU name or ``grpc://`` address; ignored (see above).
        zone: the TPU's Cloud zone; ignored.
        project: the TPU's Cloud project; ignored.
        job_name: the job name that `task_type` reports.
        coordinator_name: ignored.
        coordinator_address: ignored.
        credentials: ignored.
        service: ignored.
        discovery_url: ignored.

    Raises:
        ValueError: JAX's default devices on this host are not TPUs.

    Example:
        >>> from companion.distribute.cluster_resolver import TPUClusterResolver
        >>> try:
        ...     resolver = TPUClusterResolver()
        ...     strategy_kind = "TPUStrategy"
        ... except ValueError:  # no TPU on this host
        ...     strategy_kind = "default strategy"
        >>> strategy_kind in ("TPUStrategy", "default strategy")
        True
    """

    def __init__(self, tpu: str | None = None, zone: str | None = None, project: str | None = None,
                 job_name: str = "worker", coordinator_name=None, coordinator_address=None,
                 credentials="default", service=None, discovery_url=None):
        self.tpu, self.zone, self.project = tpu, zone, project
        self._job_name = job_name
        self._devices = tuple(local_tpu_devices(f"TPUClusterResolver(tpu={tpu!r})"))

    @staticmethod
    def connect(tpu: str | None = None, zone: str | None = None,
                project: str | None = None) -> TPUClusterResolver:
        """Makes a resolver, connects to it and initializes the TPU system, like TensorFlow's."""
        # deferred: companion.distribute._tpu_system imports this module at its top
        from companion.distribute._tpu_system import experimental_connect_to_cluster, initialize_tpu_system

        resolver = TPUClusterResolver(tpu, zone, project)
        experimental_connect_to_cluster(resolver)
        initialize_tpu_system(resolver)
        return resolver

    @property
    def devices(self) -> tuple:
        """(companion only) This host's TPU devices, as ``jax.Device`` objects."""
        return self._devices

    @property
    def task_type(self) -> str:
        """The job name given to the constructor (``'worker'``)."""
        return self._job_name

    @property
    def task_id(self) -> int:
        """This host's JAX process index."""
        return jax.process_index()

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """``''``: the TPUs are local, there is no remote master to name."""
        return ""

    def cluster_spec(self) -> ClusterSpec:
        """An empty `ClusterSpec`: the TPUs are local, there are no remote tasks to name."""
        return ClusterSpec({})

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict[str, int]:
        """``{'TPU': n}`` for the n TPU devices (cores) of this host."""
        return {"TPU": len(self._devices)}

    def __repr__(self) -> str:
        return f"TPUClusterResolver(tpu={self.tpu!r}, devices={len(self._devices)} TPU)"


def local_tpu_devices(caller: str) -> list:
    """This host's TPU devices; ``ValueError`` saying what ``caller`` looked for when there are none."""
    try:
        devices = jax.devices()
    except RuntimeError as error:  # e.g. JAX_PLATFORMS=tpu on a host without TPUs
        raise ValueError(_no_tpu_message(caller, f"JAX could not start its backend: {error}")) from None
    if devices[0].platform != "tpu":
        found = f"JAX's devices on this host are {devices[0].platform!r} devices: {_describe(devices)}"
        raise ValueError(_no_tpu_message(caller, found))
    return jax.local_devices()


def _no_tpu_message(caller: str, found: str) -> str:
    return (f"No TPU found: {caller} looks for TPU devices attached to this host (a TPU VM, or a Colab or "
            f"Kaggle TPU runtime), but {found}. companion uses only local TPUs, so the TPU name, zone and "
            f"project cannot point elsewhere. On a machine without a TPU, catch this ValueError and use the "
            f"default strategy (tf.distribute.get_strategy()), as the course labs do.")


def _describe(devices) -> str:
    shown = ", ".join(str(device) for device in devices[:4])
    return f"[{shown}{', ...' if len(devices) > 4 else ''}]"

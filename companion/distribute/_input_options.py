"""`InputOptions` and `InputReplicationMode`: how a strategy feeds a distributed dataset (TF's names)."""

import collections
import enum


class InputReplicationMode(enum.Enum):
    """Whether ``distribute_datasets_from_function`` makes one dataset per worker or per replica."""

    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


_FIELDS = ("experimental_fetch_to_device", "experimental_replication_mode",
           "experimental_place_dataset_on_device", "experimental_per_replica_buffer_size")


class InputOptions(collections.namedtuple("InputOptions", _FIELDS)):
    """Options for ``experimental_distribute_dataset`` / ``distribute_datasets_from_function``.

    ``experimental_fetch_to_device`` (default True) prefetches batches to the replicas' devices;
    companion places every batch on them anyway, so it and the buffer size only describe the feed.

    Example:
        >>> import companion as tf
        >>> tf.distribute.InputOptions(experimental_fetch_to_device=False).experimental_fetch_to_device
        False
    """

    def __new__(cls, experimental_fetch_to_device=None,
                experimental_replication_mode=InputReplicationMode.PER_WORKER,
                experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1):
        if experimental_fetch_to_device is None:
            experimental_fetch_to_device = True
        return super().__new__(cls, experimental_fetch_to_device, experimental_replication_mode,
                               experimental_place_dataset_on_device, experimental_per_replica_buffer_size)

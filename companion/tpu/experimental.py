"""``companion.tpu.experimental``: starting the TPU system (TF's ``tf.tpu.experimental``).

Example:
    >>> import companion as tf
    >>> callable(tf.tpu.experimental.initialize_tpu_system)
    True
"""
from companion.distribute._tpu_system import initialize_tpu_system as initialize


def initialize_tpu_system(cluster_resolver=None):
    """Checks the TPUs of this host and describes them; a clear ValueError where there are none."""

    return initialize(cluster_resolver)


__all__ = ["initialize_tpu_system"]

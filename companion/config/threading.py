"""``companion.config.threading``: the sizes of the thread pools (TensorFlow's ``tf.config.threading``).

companion's kernels run on XLA's own thread pools; these settings are kept, read back, and refused once
the runtime has started (after the first op ran), as TensorFlow refuses them once its context is made.
0 (the default) means "the system picks".
"""

import jax as _jax
from jax._src import xla_bridge as _xla_bridge

from companion.config._logical_devices import runtime_initialized as _runtime_initialized

_threads = {"intra": 0, "inter": 0}


def _started():
    """Whether the runtime has started: a device array exists, the logical devices were listed, or a
    program was compiled (an op ran, even if its result is gone). Starts no backend to find out."""
    return _runtime_initialized() or (_xla_bridge.backends_are_initialized() and any(
        device.client.live_executables() for device in _jax.local_devices()[:1]))


def _set(kind, num_threads):
    if _started():
        raise RuntimeError(f"{kind.capitalize()} op parallelism cannot be modified after initialization.")
    _threads[kind] = int(num_threads)


def get_intra_op_parallelism_threads():
    """The number of threads one op may use (0: the system picks).

    Example:
        >>> import companion as tf
        >>> tf.config.threading.get_intra_op_parallelism_threads()
        0
    """
    return _threads["intra"]


def set_intra_op_parallelism_threads(num_threads):
    """Sets the number of threads one op may use; only before the first op runs (else RuntimeError)."""
    _set("intra", num_threads)


def get_inter_op_parallelism_threads():
    """The number of ops that may run at once (0: the system picks)."""
    return _threads["inter"]


def set_inter_op_parallelism_threads(num_threads):
    """Sets the number of ops that may run at once; only before the first op runs (else RuntimeError)."""
    _set("inter", num_threads)


__all__ = ["get_inter_op_parallelism_threads", "get_intra_op_parallelism_threads",
           "set_inter_op_parallelism_threads", "set_intra_op_parallelism_threads"]

"""``companion.config``: devices, placement and execution settings (TensorFlow's ``tf.config``)."""

from companion._core._device import (
    LogicalDevice,
    PhysicalDevice,
    get_soft_device_placement,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_soft_device_placement,
    set_visible_devices,
)
from companion.config import experimental, optimizer, threading
from companion.config._execution import functions_run_eagerly, run_functions_eagerly
from companion.config._logical_devices import (
    LogicalDeviceConfiguration,
    get_logical_device_configuration,
    set_logical_device_configuration,
)


def experimental_run_functions_eagerly(run_eagerly):
    """The older name of `run_functions_eagerly` (TensorFlow keeps it, deprecated)."""
    run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly():
    """The older name of `functions_run_eagerly`."""
    return functions_run_eagerly()


def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name="localhost", task_index=0,
                                    protocol=None, make_master_device_default=True):
    """Connects to a TPU cluster (TF's ``tf.config.experimental_connect_to_cluster``).

    On a host without TPUs it raises the ValueError of
    `companion.distribute.cluster_resolver.TPUClusterResolver`.
    """
    # deferred: the TPU system module imports multiprocessing, which `import companion` does not load
    from companion.distribute._tpu_system import experimental_connect_to_cluster as connect

    return connect(cluster_spec_or_resolver, job_name, task_index, protocol,
                   make_master_device_default)


__all__ = [
    "LogicalDevice",
    "LogicalDeviceConfiguration",
    "PhysicalDevice",
    "experimental",
    "experimental_connect_to_cluster",
    "experimental_functions_run_eagerly",
    "experimental_run_functions_eagerly",
    "functions_run_eagerly",
    "get_logical_device_configuration",
    "get_soft_device_placement",
    "get_visible_devices",
    "list_logical_devices",
    "list_physical_devices",
    "optimizer",
    "run_functions_eagerly",
    "set_logical_device_configuration",
    "set_soft_device_placement",
    "set_visible_devices",
    "threading",
]

"""``companion.config``: devices, placement and execution settings (TensorFlow's ``tf.config``)."""

from companion._device import (
    LogicalDevice,
    PhysicalDevice,
    get_soft_device_placement,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_soft_device_placement,
    set_visible_devices,
)
from companion.config import experimental
from companion.config._execution import functions_run_eagerly, run_functions_eagerly

__all__ = [
    "LogicalDevice",
    "PhysicalDevice",
    "experimental",
    "functions_run_eagerly",
    "get_soft_device_placement",
    "get_visible_devices",
    "list_logical_devices",
    "list_physical_devices",
    "run_functions_eagerly",
    "set_soft_device_placement",
    "set_visible_devices",
]

"""``companion.config.experimental``: TensorFlow's experimental device and determinism settings."""

from companion._core._device import (
    get_memory_growth,
    get_visible_devices,
    list_logical_devices,
    list_physical_devices,
    set_memory_growth,
    set_visible_devices,
)
from companion.config._execution import disable_op_determinism, enable_op_determinism

__all__ = [
    "disable_op_determinism",
    "enable_op_determinism",
    "get_memory_growth",
    "get_visible_devices",
    "list_logical_devices",
    "list_physical_devices",
    "set_memory_growth",
    "set_visible_devices",
]

"""``companion.keras.config``: Keras 3's global settings in one place (the backend's float type,
fuzz factor and image layout, the default dtype policy, unsafe deserialization, and whether errors
raised in a layer's call name the call and its arguments)."""

from companion.keras._dtype_policy import global_policy as dtype_policy
from companion.keras._dtype_policy import set_global_policy as set_dtype_policy
from companion.keras.backend import (
    backend,
    epsilon,
    floatx,
    image_data_format,
    set_epsilon,
    set_floatx,
    set_image_data_format,
)
from companion.keras.layers._call_errors import (
    disable_traceback_filtering,
    enable_traceback_filtering,
    is_traceback_filtering_enabled,
)
from companion.keras.saving._safe_mode import enable_unsafe_deserialization

__all__ = ["backend", "disable_traceback_filtering", "dtype_policy", "enable_traceback_filtering",
           "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format",
           "is_traceback_filtering_enabled", "set_dtype_policy", "set_epsilon", "set_floatx",
           "set_image_data_format"]

"""`companion.compat`: ``compat.v1`` (TensorFlow 1's graph-and-session API), TF's text/bytes
helpers (``as_bytes``, ``as_text``, ``as_str``, ``as_str_any``, ``path_to_str``) and the shape
helpers ``dimension_value`` and ``dimension_at_index``."""

from companion._core._dimension import dimension_value
from companion._core._shape import dimension_at_index
from companion.compat import v1
from companion.compat._strings import as_bytes, as_str, as_str_any, as_text, path_to_str

__all__ = ["v1", "as_bytes", "as_text", "as_str", "as_str_any", "dimension_at_index", "dimension_value",
           "path_to_str"]

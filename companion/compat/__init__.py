"""`companion.compat`: ``compat.v1`` (TensorFlow 1's graph-and-session API) and TF's text/bytes
helpers (``as_bytes``, ``as_text``, ``as_str``, ``as_str_any``, ``path_to_str``)."""

from companion.compat import v1
from companion.compat._strings import as_bytes, as_str, as_str_any, as_text, path_to_str

__all__ = ["v1", "as_bytes", "as_text", "as_str", "as_str_any", "path_to_str"]

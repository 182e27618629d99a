"""`companion.compat`: ``compat.v1``, TensorFlow 1's graph-and-session API."""

from companion.compat import v1

__all__ = ["v1"]

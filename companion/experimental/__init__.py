"""``companion.experimental``: TensorFlow's ``tf.experimental`` names that companion has (`Optional`)."""

from companion.data._optional import Optional

__all__ = ["Optional"]

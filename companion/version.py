"""``companion.version``: TensorFlow's ``tf.version`` constants, for companion's own release."""

VERSION = "0.1.0"  # the same number as pyproject.toml's `version`
GIT_VERSION = f"v{VERSION}"

__all__ = ["GIT_VERSION", "VERSION"]

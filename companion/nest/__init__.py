"""``companion.nest``: TensorFlow's ``tf.nest``: flatten, map and compare nested structures."""

from companion._core._nest import assert_same_structure, flatten, is_nested, map_structure, pack_sequence_as

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]

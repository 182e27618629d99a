"""``companion.bitwise``: TensorFlow's ``tf.bitwise`` (element-wise bit operations on integers)."""

from companion._ops._math import bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]

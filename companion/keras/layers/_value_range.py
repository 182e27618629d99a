"""Helpers of Keras 3's colour preprocessing layers: the ``value_range`` check and rescaling."""

from companion._ops._math import cast

VALUE_RANGE_ERROR = "The `value_range` argument should be a list of two numbers. "


def checked_value_range(value_range):
    """``sorted(value_range)`` (a list, as Keras stores it); ValueError unless two numbers."""
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(VALUE_RANGE_ERROR + f"Received: value_range={value_range}")
    return sorted(value_range)


def transform_value_range(images, original_range, target_range, dtype):
    """``images`` mapped linearly from ``original_range`` to ``target_range`` (Keras's formula)."""
    if original_range[0] == target_range[0] and original_range[1] == target_range[1]:
        return images
    images = cast(images, dtype)
    low, high = cast(original_range[0], dtype), cast(original_range[1], dtype)
    target_low, target_high = cast(target_range[0], dtype), cast(target_range[1], dtype)
    return (images - low) / (high - low) * (target_high - target_low) + target_low

"""`crop_and_resize`: boxes cut from a batch of images and resampled to one size (TF's CropAndResize)."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, OutOfRangeError
from companion._core._op import op
from companion._ops._math import cast
from companion._ops._static import static_ints
from companion.image._checks import static_shape


def _positions(start, end, count, size):
    """Where each of ``count`` output pixels samples along a dimension of ``size`` pixels, per box."""
    if count > 1:
        steps = jnp.arange(count, dtype=start.dtype)
        return start[:, None] * (size - 1) + steps[None] * ((end - start) * (size - 1) / (count - 1))[:, None]
    return (0.5 * (start + end) * (size - 1))[:, None]


@op("crop_and_resize", static=("crop", "method"))
def _crop_and_resize(images, boxes, box_indices, extrapolation, crop, method):
    height, width = images.shape[1:3]
    ys = _positions(boxes[:, 0], boxes[:, 2], crop[0], height)  # [boxes, crop_height]
    xs = _positions(boxes[:, 1], boxes[:, 3], crop[1], width)
    inside = (((ys >= 0) & (ys <= height - 1))[:, :, None] & ((xs >= 0) & (xs <= width - 1))[:, None, :])
    picked = images[box_indices]  # [boxes, height, width, channels]
    rows = jnp.arange(picked.shape[0])[:, None, None]
    if method == "nearest":
        y = jnp.clip(jnp.round(ys), 0, height - 1).astype(jnp.int32)  # half away from zero, as std::round
        x = jnp.clip(jnp.round(xs), 0, width - 1).astype(jnp.int32)
        out = picked[rows, y[:, :, None], x[:, None, :]]
    else:
        top = jnp.clip(jnp.floor(ys), 0, height - 1)
        left = jnp.clip(jnp.floor(xs), 0, width - 1)
        y_lerp, x_lerp = (ys - top)[:, :, None, None], (xs - left)[:, None, :, None]
        top, left = top.astype(jnp.int32), left.astype(jnp.int32)
        bottom = jnp.clip(jnp.ceil(ys), 0, height - 1).astype(jnp.int32)
        right = jnp.clip(jnp.ceil(xs), 0, width - 1).astype(jnp.int32)

        def at(y, x):
            return picked[rows, y[:, :, None], x[:, None, :]]

        upper = at(top, left) + (at(top, right) - at(top, left)) * x_lerp
        lower = at(bottom, left) + (at(bottom, right) - at(bottom, left)) * x_lerp
        out = upper + (lower - upper) * y_lerp
    return jnp.where(inside[..., None], out, extrapolation)


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0,
                    name=None):
    """Cuts ``boxes`` (``[num_boxes, 4]``, normalized ``[y1, x1, y2, x2]``: 0 and 1 are the first and last
    pixel; ``y1 > y2`` flips the crop) out of the images ``box_indices`` names and samples each at
    ``crop_size`` = ``[height, width]`` points ("bilinear" or "nearest"); points outside the image get
    ``extrapolation_value``. Returns float32 ``[num_boxes, height, width, channels]``.

    Example:
        >>> import companion as tf
        >>> image = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
        >>> print(tf.image.crop_and_resize(image, [[0.0, 0.0, 1.0, 1.0]], [0], [2, 2])[0, ..., 0])
        companion.Tensor(
        [[ 0.  3.]
         [12. 15.]], shape=(2, 2), dtype=float32)
    """
    image, boxes, box_indices = as_input(image), as_input(boxes), as_input(box_indices)
    crop = static_ints(crop_size, "crop_and_resize: crop_size")
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"method must be bilinear or nearest. Received {method!r}")
    shape = static_shape(image)
    if len(shape) != 4:
        raise InvalidArgumentError(f"input image must be 4-D, got shape {list(shape)} (crop_and_resize "
                                   "takes a batch [batch, height, width, channels]).")
    if len(crop) != 2 or min(crop) <= 0:
        raise InvalidArgumentError(f"crop dimensions must be positive: crop_size is [height, width]. "
                                   f"Received {list(crop)}.")
    if boxes.ndim != 2 or boxes.shape[1] != 4 or box_indices.ndim != 1 or \
            box_indices.shape[0] != boxes.shape[0]:
        raise InvalidArgumentError(f"boxes must be 2-D [num_boxes, 4] and box_indices 1-D [num_boxes]. "
                                   f"Received shapes {tuple(boxes.shape.as_list())} and "
                                   f"{tuple(box_indices.shape.as_list())}.")
    if boxes.dtype.name != "float32":
        boxes = cast(boxes, "float32")
    if not box_indices.is_traced and shape[0] and (
            (box_indices.numpy() < 0).any() or (box_indices.numpy() >= shape[0]).any()):
        raise OutOfRangeError(f"box_index has values outside [0, batch_size): {box_indices.numpy()} "
                              f"for a batch of {shape[0]} images.")
    image = cast(image, "float32") if image.dtype.name != "float32" else image
    return _crop_and_resize(image, boxes, box_indices, cast(extrapolation_value, "float32"), crop=crop,
                            method=method)

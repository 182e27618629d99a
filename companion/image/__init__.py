"""`companion.image`: TensorFlow's ``tf.image``: resizing, dtype conversion, flips, crops, colour.

Every op here is a companion op (a pure JAX function): it runs eagerly, inside
``companion.function`` and under ``GradientTape``. ``decode_jpeg``/``decode_png``/
``decode_image`` and the encoders are host functions (Pillow), as in `companion.io`.
"""

from companion._ops._image_convert import convert_image_dtype
from companion.image._color import (
    adjust_brightness,
    adjust_contrast,
    adjust_gamma,
    grayscale_to_rgb,
    per_image_standardization,
    random_brightness,
    random_contrast,
    rgb_to_grayscale,
)
from companion.image._color_spaces import rgb_to_yiq, rgb_to_yuv, yiq_to_rgb, yuv_to_rgb
from companion.image._crop import (
    central_crop,
    crop_to_bounding_box,
    pad_to_bounding_box,
    random_crop,
    resize_with_crop_or_pad,
    resize_with_pad,
)
from companion.image._crop_and_resize import crop_and_resize
from companion.image._flip import (
    flip_left_right,
    flip_up_down,
    random_flip_left_right,
    random_flip_up_down,
    rot90,
    transpose,
)
from companion.image._hsv import (
    adjust_hue,
    adjust_saturation,
    hsv_to_rgb,
    random_hue,
    random_saturation,
    rgb_to_hsv,
)
from companion.image._measures import image_gradients, psnr, sobel_edges, ssim, total_variation
from companion.image._nms import (
    non_max_suppression,
    non_max_suppression_overlaps,
    non_max_suppression_with_scores,
)
from companion.image._nms_batched import combined_non_max_suppression, non_max_suppression_padded
from companion.image._patches import extract_patches
from companion.image._resize import ResizeMethod, resize
from companion.image._stateless_random import (
    stateless_random_brightness,
    stateless_random_contrast,
    stateless_random_crop,
    stateless_random_flip_left_right,
    stateless_random_flip_up_down,
    stateless_random_hue,
    stateless_random_saturation,
)
from companion.io import decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png

__all__ = [
    "ResizeMethod", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue",
    "adjust_saturation", "central_crop", "combined_non_max_suppression", "convert_image_dtype",
    "crop_and_resize", "crop_to_bounding_box",
    "decode_image", "extract_patches",
    "decode_jpeg", "decode_png", "encode_jpeg", "encode_png", "flip_left_right", "flip_up_down",
    "grayscale_to_rgb", "hsv_to_rgb", "image_gradients", "non_max_suppression",
    "non_max_suppression_overlaps", "non_max_suppression_padded", "non_max_suppression_with_scores",
    "pad_to_bounding_box",
    "per_image_standardization",
    "psnr", "random_brightness", "random_contrast", "random_crop", "random_flip_left_right",
    "random_flip_up_down", "random_hue", "random_saturation", "resize", "resize_with_crop_or_pad",
    "resize_with_pad",
    "stateless_random_brightness", "stateless_random_contrast", "stateless_random_crop",
    "stateless_random_flip_left_right", "stateless_random_flip_up_down", "stateless_random_hue",
    "stateless_random_saturation",
    "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq", "rgb_to_yuv", "rot90", "sobel_edges", "ssim",
    "total_variation",
    "transpose", "yiq_to_rgb", "yuv_to_rgb",
]

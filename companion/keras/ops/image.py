"""``companion.keras.ops.image``: Keras 3's image functions (``keras.ops.image``)."""

from companion.keras.ops._image import (
    crop_images,
    extract_patches,
    extract_patches_3d,
    gaussian_blur,
    hsv_to_rgb,
    map_coordinates,
    pad_images,
    resize,
    rgb_to_grayscale,
    rgb_to_hsv,
    sobel_edges,
    ssim,
)

__all__ = ["crop_images", "extract_patches", "extract_patches_3d", "gaussian_blur",
           "hsv_to_rgb", "map_coordinates", "pad_images", "resize", "rgb_to_grayscale", "rgb_to_hsv",
           "sobel_edges", "ssim"]

"""``companion.keras.preprocessing.image``: `array_to_img`, `img_to_array`, `load_img`, `save_img` under
their Keras 2 path (the same functions as ``keras.utils``)."""

from companion.keras.utils._image_utils import array_to_img, img_to_array, load_img, save_img

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img"]

"""``companion.keras.preprocessing``: the Keras 2 names that Keras 3 keeps (``sequence.pad_sequences``,
``image.load_img`` and its siblings, the ``*_dataset_from_*`` functions of ``keras.utils``)."""

from companion.keras.preprocessing import image, sequence
from companion.keras.utils._image_dataset import image_dataset_from_directory
from companion.keras.utils._text_dataset import text_dataset_from_directory
from companion.keras.utils._timeseries import timeseries_dataset_from_array

__all__ = ["image", "image_dataset_from_directory", "sequence", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]

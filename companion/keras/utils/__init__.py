"""``companion.keras.utils``: TensorFlow's ``tf.keras.utils`` (`Progbar`, `to_categorical`, `normalize`,
`pad_sequences`, seeding, data packing, images as arrays and files, datasets from directories of images
or texts, `split_dataset`, and the custom-object registry of ``keras.saving``)."""

from companion.keras.backend._config import clear_session as clear_session
from companion.keras.saving import CustomObjectScope as CustomObjectScope
from companion.keras.saving import custom_object_scope as custom_object_scope
from companion.keras.saving import deserialize_keras_object as deserialize_keras_object
from companion.keras.saving import get_custom_objects as get_custom_objects
from companion.keras.saving import get_registered_name as get_registered_name
from companion.keras.saving import get_registered_object as get_registered_object
from companion.keras.saving import register_keras_serializable as register_keras_serializable
from companion.keras.saving import serialize_keras_object as serialize_keras_object
from companion.keras.utils._data_packing import pack_x_y_sample_weight as pack_x_y_sample_weight
from companion.keras.utils._data_packing import unpack_x_y_sample_weight as unpack_x_y_sample_weight
from companion.keras.utils._dataset_split import split_dataset as split_dataset
from companion.keras.utils._image_dataset import image_dataset_from_directory as image_dataset_from_directory
from companion.keras.utils._image_utils import array_to_img as array_to_img
from companion.keras.utils._image_utils import img_to_array as img_to_array
from companion.keras.utils._image_utils import load_img as load_img
from companion.keras.utils._image_utils import save_img as save_img
from companion.keras.utils._normalize import normalize as normalize
from companion.keras.utils._pad_sequences import pad_sequences as pad_sequences
from companion.keras.utils._plot_model import plot_model as plot_model
from companion.keras.utils._progbar import Progbar as Progbar
from companion.keras.utils._py_dataset import PyDataset as PyDataset
from companion.keras.utils._py_dataset import Sequence as Sequence
from companion.keras.utils._set_random_seed import set_random_seed as set_random_seed
from companion.keras.utils._text_dataset import text_dataset_from_directory as text_dataset_from_directory
from companion.keras.utils._timeseries import timeseries_dataset_from_array as timeseries_dataset_from_array
from companion.keras.utils._to_categorical import to_categorical as to_categorical

__all__ = ["CustomObjectScope", "Progbar", "PyDataset", "Sequence", "array_to_img", "clear_session",
           "custom_object_scope", "deserialize_keras_object", "get_custom_objects", "get_registered_name",
           "get_registered_object", "image_dataset_from_directory", "img_to_array", "load_img", "normalize",
           "pack_x_y_sample_weight", "pad_sequences", "plot_model", "register_keras_serializable",
           "save_img", "serialize_keras_object", "set_random_seed", "split_dataset",
           "text_dataset_from_directory", "timeseries_dataset_from_array", "to_categorical",
           "unpack_x_y_sample_weight"]

"""``companion.keras.utils``: TensorFlow's ``tf.keras.utils`` (`Progbar`, `to_categorical`, `normalize`,
`pad_sequences`, seeding, data packing, and the custom-object registry of ``keras.saving``)."""

from companion.keras.backend._config import clear_session as clear_session
from companion.keras.saving import CustomObjectScope as CustomObjectScope
from companion.keras.saving import custom_object_scope as custom_object_scope
from companion.keras.saving import get_custom_objects as get_custom_objects
from companion.keras.saving import get_registered_name as get_registered_name
from companion.keras.saving import get_registered_object as get_registered_object
from companion.keras.saving import register_keras_serializable as register_keras_serializable
from companion.keras.utils._data_packing import pack_x_y_sample_weight as pack_x_y_sample_weight
from companion.keras.utils._data_packing import unpack_x_y_sample_weight as unpack_x_y_sample_weight
from companion.keras.utils._normalize import normalize as normalize
from companion.keras.utils._pad_sequences import pad_sequences as pad_sequences
from companion.keras.utils._progbar import Progbar as Progbar
from companion.keras.utils._py_dataset import PyDataset as PyDataset
from companion.keras.utils._py_dataset import Sequence as Sequence
from companion.keras.utils._set_random_seed import set_random_seed as set_random_seed
from companion.keras.utils._timeseries import timeseries_dataset_from_array as timeseries_dataset_from_array
from companion.keras.utils._to_categorical import to_categorical as to_categorical

__all__ = ["CustomObjectScope", "Progbar", "PyDataset", "Sequence", "clear_session", "custom_object_scope",
           "get_custom_objects",
           "get_registered_name", "get_registered_object", "normalize", "pack_x_y_sample_weight",
           "pad_sequences", "register_keras_serializable", "set_random_seed", "timeseries_dataset_from_array",
           "to_categorical", "unpack_x_y_sample_weight"]

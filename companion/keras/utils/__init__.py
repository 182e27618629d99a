"""``companion.keras.utils``: TensorFlow's ``tf.keras.utils`` (`Progbar`, `to_categorical`, `normalize`,
`pad_sequences`, seeding)."""

from companion.keras.utils._normalize import normalize as normalize
from companion.keras.utils._pad_sequences import pad_sequences as pad_sequences
from companion.keras.utils._progbar import Progbar as Progbar
from companion.keras.utils._set_random_seed import set_random_seed as set_random_seed
from companion.keras.utils._timeseries import timeseries_dataset_from_array as timeseries_dataset_from_array
from companion.keras.utils._to_categorical import to_categorical as to_categorical

__all__ = ["Progbar", "normalize", "pad_sequences", "set_random_seed", "timeseries_dataset_from_array",
           "to_categorical"]

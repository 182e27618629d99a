"""``companion.keras.losses``: TensorFlow's ``tf.keras.losses`` (loss classes, functions, ``get``)."""

from companion.keras.losses._binary_crossentropy import BinaryCrossentropy, binary_crossentropy
from companion.keras.losses._categorical_crossentropy import (
    CategoricalCrossentropy,
    categorical_crossentropy,
)
from companion.keras.losses._get import deserialize, get, serialize
from companion.keras.losses._huber import Huber, huber
from companion.keras.losses._loss import Loss, LossFunctionWrapper
from companion.keras.losses._mean_absolute_error import (
    MAE,
    MeanAbsoluteError,
    mae,
    mean_absolute_error,
)
from companion.keras.losses._mean_squared_error import MSE, MeanSquaredError, mean_squared_error, mse
from companion.keras.losses._reduction import Reduction
from companion.keras.losses._sparse_categorical_crossentropy import (
    SparseCategoricalCrossentropy,
    sparse_categorical_crossentropy,
)

__all__ = [
    "MAE", "MSE", "BinaryCrossentropy", "CategoricalCrossentropy", "Huber", "Loss",
    "LossFunctionWrapper", "MeanAbsoluteError", "MeanSquaredError", "Reduction",
    "SparseCategoricalCrossentropy", "binary_crossentropy", "categorical_crossentropy",
    "deserialize", "get", "huber", "mae", "mean_absolute_error", "mean_squared_error", "mse",
    "serialize", "sparse_categorical_crossentropy",
]

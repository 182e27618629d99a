"""``companion.keras.losses``: TensorFlow's ``tf.keras.losses`` (loss classes, functions, ``get``)."""

from companion.keras.losses._binary_crossentropy import BinaryCrossentropy, binary_crossentropy
from companion.keras.losses._categorical_crossentropy import (
    CategoricalCrossentropy,
    categorical_crossentropy,
)
from companion.keras.losses._circle import Circle, circle
from companion.keras.losses._ctc import CTC, ctc
from companion.keras.losses._elementwise import (
    KLD,
    MAPE,
    MSLE,
    CategoricalHinge,
    CosineSimilarity,
    Hinge,
    KLDivergence,
    LogCosh,
    MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError,
    Poisson,
    SquaredHinge,
    categorical_hinge,
    cosine_similarity,
    hinge,
    kl_divergence,
    kld,
    kullback_leibler_divergence,
    log_cosh,
    logcosh,
    mape,
    mean_absolute_percentage_error,
    mean_squared_logarithmic_error,
    msle,
    poisson,
    squared_hinge,
)
from companion.keras.losses._focal_and_overlap import (
    BinaryFocalCrossentropy,
    CategoricalFocalCrossentropy,
    Dice,
    Tversky,
    binary_focal_crossentropy,
    categorical_focal_crossentropy,
    dice,
    tversky,
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
    "KLD", "MAE", "MAPE", "MSE", "MSLE", "BinaryCrossentropy", "BinaryFocalCrossentropy",
    "CategoricalCrossentropy", "CategoricalFocalCrossentropy", "Dice", "Tversky", "binary_focal_crossentropy",
    "categorical_focal_crossentropy", "dice", "tversky", "CTC", "Circle", "circle", "ctc",
    "CategoricalHinge", "CosineSimilarity", "Hinge", "Huber", "KLDivergence", "LogCosh", "Loss",
    "LossFunctionWrapper", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredError",
    "MeanSquaredLogarithmicError", "Poisson", "Reduction", "SparseCategoricalCrossentropy",
    "SquaredHinge", "binary_crossentropy", "categorical_crossentropy", "categorical_hinge",
    "cosine_similarity", "deserialize", "get", "hinge", "huber", "kl_divergence", "kld",
    "kullback_leibler_divergence", "log_cosh", "logcosh", "mae", "mape", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error", "mse",
    "msle", "poisson", "serialize", "sparse_categorical_crossentropy", "squared_hinge",
]

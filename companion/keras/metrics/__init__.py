"""``companion.keras.metrics``: TensorFlow's ``tf.keras.metrics`` (stateful metrics and functions)."""

from companion.keras.losses._binary_crossentropy import binary_crossentropy
from companion.keras.losses._categorical_crossentropy import categorical_crossentropy
from companion.keras.losses._elementwise import (
    KLD,
    MAPE,
    MSLE,
    categorical_hinge,
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
    binary_focal_crossentropy,
    categorical_focal_crossentropy,
)
from companion.keras.losses._huber import huber
from companion.keras.losses._mean_absolute_error import MAE, mae, mean_absolute_error
from companion.keras.losses._mean_squared_error import MSE, mean_squared_error, mse
from companion.keras.losses._sparse_categorical_crossentropy import sparse_categorical_crossentropy
from companion.keras.metrics._accuracy import (
    Accuracy,
    BinaryAccuracy,
    CategoricalAccuracy,
    SparseCategoricalAccuracy,
    accuracy,
    binary_accuracy,
    categorical_accuracy,
    sparse_categorical_accuracy,
)
from companion.keras.metrics._at_constraint import (
    PrecisionAtRecall,
    RecallAtPrecision,
    SensitivityAtSpecificity,
    SpecificityAtSensitivity,
)
from companion.keras.metrics._auc import AUC
from companion.keras.metrics._confusion_metrics import (
    FalseNegatives,
    FalsePositives,
    TrueNegatives,
    TruePositives,
)
from companion.keras.metrics._correlation import (
    ConcordanceCorrelation,
    PearsonCorrelation,
    concordance_correlation,
    pearson_correlation,
)
from companion.keras.metrics._f_score import F1Score, FBetaScore
from companion.keras.metrics._get import deserialize, get, serialize
from companion.keras.metrics._iou import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU
from companion.keras.metrics._mean_metric_wrapper import MeanMetricWrapper
from companion.keras.metrics._metric import Metric
from companion.keras.metrics._precision_recall import Precision, Recall
from companion.keras.metrics._probabilistic import (
    BinaryCrossentropy,
    CategoricalCrossentropy,
    CategoricalHinge,
    CosineSimilarity,
    Hinge,
    KLDivergence,
    LogCoshError,
    MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError,
    Poisson,
    SparseCategoricalCrossentropy,
    SquaredHinge,
    cosine_similarity,
)
from companion.keras.metrics._r2_score import R2Score
from companion.keras.metrics._reduce import Mean, Reduce, Sum
from companion.keras.metrics._regression import (
    MeanAbsoluteError,
    MeanSquaredError,
    RootMeanSquaredError,
)
from companion.keras.metrics._top_k import (
    SparseTopKCategoricalAccuracy,
    TopKCategoricalAccuracy,
    sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)

__all__ = [
    "PrecisionAtRecall", "RecallAtPrecision", "SensitivityAtSpecificity", "SpecificityAtSensitivity",
    "AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "BinaryIoU", "CategoricalAccuracy",
    "CategoricalCrossentropy", "CategoricalHinge", "ConcordanceCorrelation", "CosineSimilarity", "F1Score",
    "FBetaScore", "FalseNegatives", "FalsePositives", "Hinge", "IoU", "KLD", "KLDivergence", "LogCoshError",
    "MAE", "MAPE", "MSE", "MSLE", "Mean", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanIoU",
    "MeanMetricWrapper", "MeanSquaredError", "MeanSquaredLogarithmicError", "Metric", "OneHotIoU",
    "OneHotMeanIoU", "PearsonCorrelation", "Poisson", "Precision", "R2Score", "Recall", "Reduce",
    "RootMeanSquaredError", "SparseCategoricalAccuracy", "SparseCategoricalCrossentropy",
    "SparseTopKCategoricalAccuracy", "SquaredHinge", "Sum", "TopKCategoricalAccuracy", "TrueNegatives",
    "TruePositives", "accuracy", "binary_accuracy", "binary_crossentropy", "binary_focal_crossentropy",
    "categorical_accuracy", "categorical_crossentropy", "categorical_focal_crossentropy",
    "categorical_hinge", "concordance_correlation", "cosine_similarity", "deserialize", "get", "hinge",
    "huber", "kl_divergence", "kld", "kullback_leibler_divergence", "log_cosh", "logcosh", "mae", "mape",
    "mean_absolute_error", "mean_absolute_percentage_error", "mean_squared_error",
    "mean_squared_logarithmic_error", "mse", "msle", "pearson_correlation", "poisson", "serialize",
    "sparse_categorical_accuracy", "sparse_categorical_crossentropy", "sparse_top_k_categorical_accuracy",
    "squared_hinge", "top_k_categorical_accuracy",
]

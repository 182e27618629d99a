"""`companion.datasets`: offline data sets in the style of TensorFlow Datasets (``tfds.load``).

Nothing is downloaded at run time. ``digits`` and ``breast_cancer`` ship with
scikit-learn, ``shapes`` is generated, ``mnist`` and ``fashion_mnist`` are read from a
local cache folder (see `load`).

Internal surface for other companion packages: ``_keras_style`` (the ``load_data`` functions
that `companion.keras.datasets` re-exports).
"""

from companion.datasets._builder import Builder
from companion.datasets._idx import ChecksumError, IdxFormatError, read_idx
from companion.datasets._info import (
    ClassLabel,
    DatasetInfo,
    FeaturesDict,
    Image,
    SplitDict,
    SplitInfo,
    Tensor,
)
from companion.datasets._load import as_numpy, builder, list_builders, load
from companion.datasets._mnist import DatasetFilesNotFoundError
from companion.datasets._splits import Split

__all__ = [
    "Builder", "ChecksumError", "ClassLabel", "DatasetFilesNotFoundError", "DatasetInfo", "FeaturesDict",
    "IdxFormatError", "Image", "Split", "SplitDict", "SplitInfo", "Tensor", "as_numpy", "builder",
    "list_builders", "load", "read_idx",
]

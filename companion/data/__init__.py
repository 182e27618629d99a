"""``companion.data``: tf.data-style input pipelines (`Dataset`) overlapping I/O, preprocessing, training.

Internal surface for other companion packages: ``_optional`` (``Optional``/``OptionalSpec``,
re-exported by the root package and `companion.experimental`).
"""

from companion.data import experimental
from companion.data._autotune import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from companion.data._dataset import Dataset
from companion.data._fixed_length import FixedLengthRecordDataset
from companion.data._iterator import Iterator
from companion.data._options import Options, ThreadingOptions
from companion.data._spec import DatasetSpec
from companion.data._text_lines import TextLineDataset
from companion.data._tfrecord import TFRecordDataset

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Dataset", "DatasetSpec", "Iterator",
           "FixedLengthRecordDataset", "Options", "TFRecordDataset", "TextLineDataset", "ThreadingOptions",
           "experimental"]

"""`companion.io`: TensorFlow's ``tf.io``: TFRecord files, ``Example`` parsing, image codecs, files.

Internal surface for other companion packages: ``_records`` (the TFRecord framing, read by
`companion.data.TFRecordDataset`).
"""

from companion.io import gfile
from companion.io._codecs import decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png
from companion.io._csv import decode_csv
from companion.io._features import FixedLenFeature, VarLenFeature
from companion.io._files import read_file, write_file
from companion.io._parse import parse_example, parse_single_example
from companion.io._records import RecordCorruptedError
from companion.io._sparse_tensor import SparseTensor, sparse_to_dense
from companion.io._tfrecord_writer import TFRecordOptions, TFRecordWriter

__all__ = [
    "FixedLenFeature", "RecordCorruptedError", "SparseTensor", "TFRecordOptions", "TFRecordWriter",
    "VarLenFeature", "decode_csv", "decode_image", "decode_jpeg", "decode_png", "encode_jpeg", "encode_png",
    "gfile", "parse_example", "parse_single_example", "read_file", "sparse_to_dense", "write_file",
]

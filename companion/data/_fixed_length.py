"""`FixedLengthRecordDataset`: the records of binary files cut into pieces of one length, after a
header and before a footer of fixed sizes."""

import numbers

from companion._core._errors import InvalidArgumentError
from companion.data._dataset import Dataset
from companion.data._text_lines import file_bytes, interleaved
from companion.data._tfrecord import read_files

_READER = "FixedLengthRecordDataset"


class FixedLengthRecordDatasetV2(Dataset):
    """A `Dataset` of the records (scalar string tensors of ``record_bytes`` bytes) of binary files.

    Each file is read whole (decompressed first with ``compression_type``); ``header_bytes`` at its
    start and ``footer_bytes`` at its end are skipped, and the rest must be a whole number of
    records (else ``InvalidArgumentError`` while iterating, as TF). A `Dataset` subclass, as in TF.

    Args:
        filenames: a path, a list of paths, a string tensor of paths, or a Dataset of paths.
        record_bytes: the length of every record, a positive integer.
        header_bytes, footer_bytes: bytes to skip at the start and end of each file (default 0).
        buffer_size: accepted for TensorFlow compatibility.
        compression_type: None or ``''`` (plain), ``'GZIP'`` or ``'ZLIB'``.
        num_parallel_reads: read this many files in turn, a record from each (TF's interleave order).

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "records.bin")
        >>> _ = open(path, "wb").write(b"HDRabcdef")
        >>> [r.numpy() for r in tf.data.FixedLengthRecordDataset(path, 2, header_bytes=3)]
        [b'ab', b'cd', b'ef']
    """

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None, name=None):
        record = _size(record_bytes, "record_bytes", least=1)
        header, footer = _size(header_bytes or 0, "header_bytes"), _size(footer_bytes or 0, "footer_bytes")

        def records(paths, compression, cycle_length):
            return interleaved(paths, lambda path: _records_of(path, compression, record, header, footer),
                               cycle_length)

        super().__init__(read_files(filenames, compression_type, num_parallel_reads, _READER, records))


FixedLengthRecordDataset = FixedLengthRecordDatasetV2


def _size(value, what, least=0):
    """``value`` as a Python int of at least ``least``, or a clear error."""
    value = value.numpy() if hasattr(value, "numpy") else value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{_READER}: {what} must be an integer number of bytes. Received: {value!r} of type "
                        f"{type(value).__name__}.")
    if int(value) < least:
        raise ValueError(f"{_READER}: {what} must be at least {least}. Received: {int(value)}.")
    return int(value)


def _records_of(path, compression, record, header, footer):
    data = file_bytes(path, compression, _READER)
    body = len(data) - header - footer
    if body < 0 or body % record:
        raise InvalidArgumentError(
            f"Excluding the header ({header} bytes) and footer ({footer} bytes), input file \"{path}\" has "
            f"body length {max(body, 0)} bytes, which is not an exact multiple of the record length "
            f"({record} bytes).")
    for start in range(header, header + body, record):
        yield data[start:start + record]

"""`TextLineDataset`: the lines of text files (without their line ends), one file after another or
several at a time."""

import gzip
import zlib

from companion._core import _dtypes
from companion._core._errors import NotFoundError
from companion._core._tensor_spec import TensorSpec
from companion.data._dataset import Dataset
from companion.data._tfrecord import _cycle_length, filename_list
from companion.io import _records


def TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None,  # noqa: N802
                    name=None):
    """A `Dataset` of the lines (scalar string tensors, ``\\n`` or ``\\r\\n`` removed) of text files.

    Args:
        filenames: a path, a list of paths, a string tensor of paths, or a Dataset of paths.
        compression_type: None or ``''`` (plain), ``'GZIP'`` or ``'ZLIB'``.
        buffer_size: accepted for TensorFlow compatibility.
        num_parallel_reads: read this many files in turn, a line from each (TensorFlow's
            interleave order); None reads them one after the other.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "lines.txt")
        >>> _ = open(path, "w").write("first\\nsecond\\n")
        >>> [line.numpy() for line in tf.data.TextLineDataset(path)]
        [b'first', b'second']
    """
    paths = filename_list(filenames, "TextLineDataset")
    compression = _records.check_compression(compression_type, "TextLineDataset")
    cycle_length = _cycle_length(num_parallel_reads, len(paths))
    return Dataset._from_iterable_factory(lambda: _interleaved(paths, compression, cycle_length),
                                          TensorSpec(shape=(), dtype=_dtypes.string),
                                          kind="TextLineDatasetV2")


def _interleaved(paths, compression, cycle_length):
    if cycle_length <= 1:
        for path in paths:
            yield from _lines(path, compression)
        return
    open_files, pending = [], list(paths)
    while pending or open_files:
        while pending and len(open_files) < cycle_length:
            open_files.append(_lines(pending.pop(0), compression))
        for reader in list(open_files):
            line = next(reader, None)
            if line is None:
                open_files.remove(reader)
            else:
                yield line


def _lines(path, compression):
    try:
        raw = open(path, "rb")
    except FileNotFoundError:
        raise NotFoundError(f"TextLineDataset: {path}; No such file or directory") from None
    with raw:
        data = raw.read()
    if compression == "GZIP":
        data = gzip.decompress(data)
    elif compression == "ZLIB":
        data = zlib.decompress(data)
    lines = data.split(b"\n") if data else []
    if lines and not lines[-1]:  # a final line end ends the last line; it starts no empty one
        lines.pop()
    for line in lines:
        yield line[:-1] if line.endswith(b"\r") else line

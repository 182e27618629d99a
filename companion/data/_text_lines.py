"""`TextLineDataset`: the lines of text files (without their line ends), one file after another or
several at a time."""

import gzip
import zlib

from companion._core._errors import NotFoundError
from companion.data._dataset import Dataset
from companion.data._tfrecord import read_files


class TextLineDatasetV2(Dataset):
    """A `Dataset` of the lines (scalar string tensors, ``\\n`` or ``\\r\\n`` removed) of text files.

    A `Dataset` subclass, as in TensorFlow (``isinstance(ds, tf.data.TextLineDataset)``).

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

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None,
                 name=None):
        def records(paths, compression, cycle_length):
            return interleaved(paths, lambda path: _lines(path, compression), cycle_length)

        super().__init__(read_files(filenames, compression_type, num_parallel_reads, "TextLineDataset",
                                    records))


TextLineDataset = TextLineDatasetV2  # TF's name for its class TextLineDatasetV2


def interleaved(paths, read, cycle_length):
    """The items ``read(path)`` yields for each of ``paths``: one file after another, or with
    ``cycle_length`` > 1 one item from each of that many open files in turn (TF's interleave order)."""
    if cycle_length <= 1:
        for path in paths:
            yield from read(path)
        return
    open_files, pending = [], list(paths)
    while pending or open_files:
        while pending and len(open_files) < cycle_length:
            open_files.append(read(pending.pop(0)))
        for reader in list(open_files):
            line = next(reader, None)
            if line is None:
                open_files.remove(reader)
            else:
                yield line


def file_bytes(path, compression, reader):
    """The whole (decompressed) contents of ``path``; NotFoundError naming ``reader`` if it is missing."""
    try:
        raw = open(path, "rb")
    except FileNotFoundError:
        raise NotFoundError(f"{reader}: {path}; No such file or directory") from None
    with raw:
        data = raw.read()
    if compression == "GZIP":
        data = gzip.decompress(data)
    elif compression == "ZLIB":
        data = zlib.decompress(data)
    return data


def _lines(path, compression):
    data = file_bytes(path, compression, "TextLineDataset")
    lines = data.split(b"\n") if data else []
    if lines and not lines[-1]:  # a final line end ends the last line; it starts no empty one
        lines.pop()
    for line in lines:
        yield line[:-1] if line.endswith(b"\r") else line

"""`TFRecordWriter` and `TFRecordOptions`: write records that TensorFlow (and companion) can read."""

import os

from companion._core._convert import is_tensor
from companion.io import _records


class TFRecordOptions:
    """Options of a TFRecord file: its compression (``None``/``''``, ``'GZIP'`` or ``'ZLIB'``).

    Args:
        compression_type: the compression of the whole file.
        compression_level: the zlib level 0-9 for GZIP/ZLIB (None: zlib's default).
    """

    def __init__(self, compression_type=None, compression_level=None, **unused_tf_options):
        self.compression_type = _records.check_compression(compression_type, "TFRecordOptions")
        self.compression_level = compression_level

    def __repr__(self):
        return f"TFRecordOptions(compression_type={self.compression_type!r})"


class TFRecordWriter:
    """Writes records (bytes) to a TFRecord file, framed and checksummed as TensorFlow writes them.

    Use it as a context manager, or call `close` when done: records may be buffered until
    then.

    Args:
        path: the file to create (it is overwritten).
        options: a `TFRecordOptions`, or a compression type string (``'GZIP'``, ``'ZLIB'``).

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
        >>> with tf.io.TFRecordWriter(path) as writer:
        ...     writer.write(b"first")
        ...     writer.write(b"second")
        >>> os.path.getsize(path)  # 16 bytes of framing per record (read it with tf.data.TFRecordDataset)
        43
    """

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(compression_type=options)
        self._path = os.fspath(path)
        self._options = options
        self._file = _records.open_for_write(self._path, options.compression_type, options.compression_level)

    def write(self, record):
        """Appends one record: ``bytes`` (e.g. ``example.SerializeToString()``) or a scalar string tensor."""
        self._check_open()
        self._file.write(_records.frame(_as_bytes(record)))

    def flush(self):
        """Pushes buffered records to the file."""
        self._check_open()
        self._file.flush()

    def close(self):
        """Finishes the file (writes the end of a compressed stream). Closing twice is fine."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        if getattr(self, "_file", None) is not None:
            self.close()

    def __repr__(self):
        state = "closed" if self._file is None else "open"
        return f"<TFRecordWriter {self._path!r} ({state}, {self._options!r})>"

    def _check_open(self):
        if self._file is None:
            raise ValueError(f"TFRecordWriter for {self._path!r} is closed. Create a new writer to "
                             "write more records (the old file would be overwritten).")


def _as_bytes(record):
    if is_tensor(record):
        record = record.numpy()
    if isinstance(record, str):
        return record.encode("utf-8")
    if isinstance(record, (bytes, bytearray, memoryview)):
        return bytes(record)
    raise TypeError(f"TFRecordWriter.write takes bytes (e.g. example.SerializeToString()) or a scalar "
                    f"string tensor. Received a value of type {type(record).__name__}: {record!r:.80}")

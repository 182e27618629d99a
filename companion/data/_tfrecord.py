"""`TFRecordDataset`: the records of TFRecord files, read in order or several files at a time.

With ``num_parallel_reads=n`` the files are interleaved as TensorFlow does
(``interleave(cycle_length=n, block_length=1)``, deterministic order): one record from
each of ``n`` open files in turn, a finished file's place taken by the next file. Each
open file is read ahead by its own background thread into a bounded buffer, so reading
overlaps with the consumer; the threads stop when iteration ends or is abandoned.
"""

import collections
import os
import queue
import threading

from companion._core import _dtypes
from companion._core._convert import is_tensor
from companion._core._tensor_spec import TensorSpec
from companion.data._autotune import AUTOTUNE
from companion.data._dataset import Dataset
from companion.io import _records

_BUFFER_RECORDS = 256  # records each read-ahead thread may hold
_END = object()


class TFRecordDatasetV2(Dataset):
    """A `Dataset` of the records (scalar string tensors) in one or more TFRecord files.

    A `Dataset` subclass, as in TensorFlow (``isinstance(ds, tf.data.TFRecordDataset)``).

    Args:
        filenames: a path, a list of paths, a string tensor of paths, or a Dataset of paths.
        compression_type: None or ``''`` (plain), ``'GZIP'`` or ``'ZLIB'``.
        buffer_size: accepted for TensorFlow compatibility (reads are buffered by Python).
        num_parallel_reads: how many files to read at once (None: one after the other;
            ``companion.data.AUTOTUNE``: as many as files, up to the CPU count).

    Raises (while iterating):
        NotFoundError: a file does not exist.
        DataLossError: a record is truncated or fails its CRC32C check
            (`companion.io.RecordCorruptedError`).

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "numbers.tfrecord")
        >>> with tf.io.TFRecordWriter(path) as writer:
        ...     for n in range(3):
        ...         writer.write(str(n).encode())
        >>> [r.numpy() for r in tf.data.TFRecordDataset([path])]
        [b'0', b'1', b'2']
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None,
                 name=None):
        super().__init__(read_files(filenames, compression_type, num_parallel_reads, "TFRecordDataset",
                                    interleave_records))


TFRecordDataset = TFRecordDatasetV2  # TF's name for its class TFRecordDatasetV2


def read_files(filenames, compression_type, num_parallel_reads, reader, records):
    """The Dataset of scalar strings ``records(paths, compression, cycle_length)`` yields for a file
    reader named ``reader`` (its arguments checked here; its kind is TF's class name, ``reader`` + V2)."""
    paths = filename_list(filenames)
    compression = _records.check_compression(compression_type, reader)
    cycle_length = _cycle_length(num_parallel_reads, len(paths))
    return Dataset._from_iterable_factory(lambda: records(paths, compression, cycle_length),
                                          TensorSpec(shape=(), dtype=_dtypes.string), kind=f"{reader}V2")


def filename_list(filenames):
    """``filenames`` (path, list, string tensor or Dataset of paths) as a list of ``str`` paths."""
    if hasattr(filenames, "as_numpy_iterator"):
        filenames = list(filenames.as_numpy_iterator())
    elif is_tensor(filenames):
        filenames = filenames.numpy()
        filenames = [filenames] if isinstance(filenames, bytes) else filenames.reshape(-1).tolist()
    elif isinstance(filenames, (str, bytes, os.PathLike)):
        filenames = [filenames]
    return [os.fsdecode(f) if isinstance(f, bytes) else os.fspath(f) for f in filenames]  # none: no records


def interleave_records(paths, compression, cycle_length):
    """Yields the records of ``paths`` in TensorFlow's interleave order (``block_length=1``)."""
    if cycle_length <= 1:
        for path in paths:
            yield from _records.read_records(path, compression)
        return
    slots, pending = [None] * cycle_length, collections.deque(paths)
    index = 0
    try:
        while pending or any(slots):
            if slots[index] is None and pending:
                slots[index] = _ReadAhead(pending.popleft(), compression)
            if slots[index] is not None:
                record = slots[index].next()
                if record is _END:
                    slots[index].close()
                    slots[index] = None
                else:
                    yield record
            index = (index + 1) % cycle_length
    finally:
        for slot in slots:
            if slot is not None:
                slot.close()


class _ReadAhead:
    """Reads one TFRecord file in a background thread into a bounded queue."""

    def __init__(self, path, compression):
        self._queue = queue.Queue(maxsize=_BUFFER_RECORDS)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(path, compression), daemon=True,
                                        name=f"companion-tfrecord-reader:{os.path.basename(path)}")
        self._thread.start()

    def next(self):
        """The next record, or ``_END``; re-raises the reader's error (e.g. a corrupted record)."""
        kind, value = self._queue.get()
        if kind == "error":
            raise value
        return value

    def close(self):
        self._stop.set()
        while self._thread.is_alive():
            self._drain()
            self._thread.join(timeout=0.05)

    def _run(self, path, compression):
        try:
            for record in _records.read_records(path, compression):
                if not self._put(("record", record)):
                    return
            self._put(("end", _END))
        except Exception as err:  # handed to the consumer, raised there
            self._put(("error", err))

    def _put(self, item):
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _drain(self):
        try:
            while True:
                self._queue.get_nowait()
        except queue.Empty:
            pass


def _cycle_length(num_parallel_reads, num_files):
    if num_parallel_reads is None:
        return 1
    if num_parallel_reads == AUTOTUNE:
        return max(1, min(num_files, os.cpu_count() or 1))
    if not isinstance(num_parallel_reads, int) or num_parallel_reads < 1:
        raise ValueError(f"num_parallel_reads must be a positive integer, companion.data.AUTOTUNE or None. "
                         f"Received: {num_parallel_reads!r}")
    return num_parallel_reads

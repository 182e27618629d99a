"""TFRecord framing: each record as TensorFlow writes it, with masked CRC32C checksums.

A record on disk is::

    uint64 length            (little-endian)
    uint32 masked_crc32c(length bytes)
    byte   data[length]
    uint32 masked_crc32c(data)

where ``masked(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8`` (mod 2**32). A file is
these records back to back, optionally compressed as a whole with GZIP or ZLIB.
"""

import gzip
import io
import os
import struct
import zlib

from companion._core._errors import DataLossError, NotFoundError, RuntimeCheckError

_MASK_DELTA = 0xA282EAD8
_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")
COMPRESSIONS = ("", "GZIP", "ZLIB")


class RecordCorruptedError(DataLossError):
    """A TFRecord file is truncated or a checksum does not match (a `DataLossError`, so an ``IOError``)."""


def masked_crc32c(data):
    """The masked CRC32C checksum TFRecord stores for ``data`` (bytes).

    Example:
        >>> from companion.io._records import masked_crc32c
        >>> hex(masked_crc32c(b""))
        '0xa282ead8'
    """
    # deferred: google_crc32c loads on first use, kept off `import companion`
    import google_crc32c

    crc = google_crc32c.value(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def frame(data):
    """``data`` framed as one TFRecord: header, data, footer."""
    header = struct.pack("<Q", len(data))
    return b"".join([header, _FOOTER.pack(masked_crc32c(header)), data, _FOOTER.pack(masked_crc32c(data))])


def check_compression(compression_type, what):
    """``compression_type`` (None, '', 'GZIP' or 'ZLIB', any case) as '', 'GZIP' or 'ZLIB'."""
    name = (compression_type or "").upper() if isinstance(compression_type, (str, type(None))) else None
    if name not in COMPRESSIONS:
        raise RuntimeCheckError(
            f"{what}: compression_type must be None, '' (no compression), 'GZIP' or 'ZLIB'. "
            f"Received: compression_type={compression_type!r}")
    return name


def open_for_write(path, compression, level=None):
    """A binary file object writing to ``path``, compressing with ``compression`` at ``level``."""
    level = -1 if level is None else level
    if compression == "GZIP":
        return gzip.open(os.fspath(path), "wb", compresslevel=9 if level == -1 else level)
    if compression == "ZLIB":
        return _ZlibWriter(open(os.fspath(path), "wb"), level)
    return open(os.fspath(path), "wb")


def read_records(path, compression=""):
    """Yields the data of each record in the TFRecord file ``path`` (bytes), checking checksums.

    Raises:
        NotFoundError: the file does not exist.
        RecordCorruptedError: the file is truncated or a checksum does not match.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise NotFoundError(f"TFRecord file not found: {path!r}. Check the path (absolute, or relative "
                            f"to the working directory {os.getcwd()!r}).")
    with _open_for_read(path, compression) as stream:
        index = 0
        while True:
            data = _read_record(stream, path, index, compression)
            if data is None:
                return
            yield data
            index += 1


# -- private helpers ---------------------------------------------------------------------

def _open_for_read(path, compression):
    if compression == "GZIP":
        return gzip.open(path, "rb")
    if compression == "ZLIB":
        with open(path, "rb") as raw:
            return io.BytesIO(_inflate(raw.read(), path))  # whole file: ZLIB files are rare and small
    return open(path, "rb")


def _inflate(data, path):
    try:
        return zlib.decompress(data)
    except zlib.error as err:
        raise RecordCorruptedError(f"{path!r} is not a valid ZLIB stream ({err}). Was it written with "
                                   "compression_type='ZLIB'?") from None


def _read_record(stream, path, index, compression):
    header = _read_exactly(stream, _HEADER.size, path, index, compression, allow_eof=True)
    if header is None:
        return None
    length, length_crc = _HEADER.unpack(header)
    if masked_crc32c(header[:8]) != length_crc:
        raise _corrupted(path, index, "the checksum of its length field does not match", compression)
    data = _read_exactly(stream, length, path, index, compression)
    (data_crc,) = _FOOTER.unpack(_read_exactly(stream, _FOOTER.size, path, index, compression))
    if masked_crc32c(data) != data_crc:
        raise _corrupted(path, index, "the checksum of its data does not match", compression)
    return data


def _read_exactly(stream, size, path, index, compression, allow_eof=False):
    try:
        data = stream.read(size)
    except (OSError, EOFError) as err:  # a damaged GZIP stream
        raise _corrupted(path, index, f"the compressed stream is damaged ({err})", compression) from None
    if allow_eof and not data:
        return None
    if len(data) != size:
        reason = f"the file ends after {len(data)} of {size} expected bytes"
        raise _corrupted(path, index, reason, compression)
    return data


def _corrupted(path, index, reason, compression):
    hint = ("" if compression else " If the file is compressed, pass compression_type='GZIP' (or 'ZLIB').")
    return RecordCorruptedError(
        f"corrupted record at index {index} in TFRecord file {path!r}: {reason}. Each record should be "
        f"framed as TensorFlow writes it (length, masked CRC32C, data, masked CRC32C).{hint} Re-create "
        "the file from its source.")


class _ZlibWriter:
    """A write-only file object that deflates what it is given (TFRecord 'ZLIB' files)."""

    def __init__(self, raw, level):
        self._raw = raw
        self._deflate = zlib.compressobj(level)

    def write(self, data):
        self._raw.write(self._deflate.compress(data))

    def flush(self):
        self._raw.write(self._deflate.flush(zlib.Z_SYNC_FLUSH))
        self._raw.flush()

    def close(self):
        if not self._raw.closed:
            self._raw.write(self._deflate.flush())
            self._raw.close()

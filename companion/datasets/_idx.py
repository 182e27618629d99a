"""The IDX file format of MNIST and Fashion-MNIST: read (plain or gzipped) and verify by SHA-256.

An IDX file is a big-endian header — two zero bytes, a type code, the number of
dimensions ``n``, then ``n`` uint32 sizes — followed by the values in row-major order.
"""

import gzip
import hashlib
import os
import struct

import numpy as np

from companion._core._errors import DataLossError

_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
_GZIP_MAGIC = b"\x1f\x8b"


class IdxFormatError(DataLossError):
    """A file is not a valid IDX file (bad header, or a length that does not match it)."""


class ChecksumError(DataLossError):
    """A data file's SHA-256 differs from the published one (a `DataLossError`, so an ``IOError``)."""


def read_idx(path):
    """The array stored in the IDX file ``path`` (gzipped or not), in native byte order.

    Raises:
        IdxFormatError: the header is invalid or the data length does not match it.
    """
    data = _read_bytes(path)
    if len(data) < 4 or data[:2] != b"\x00\x00" or data[2] not in _TYPES:
        raise IdxFormatError(f"{path!r} is not an IDX file: it should start with two zero bytes, a type code "
                             f"({', '.join(hex(t) for t in _TYPES)}) and a rank. It starts {data[:4]!r}.")
    dtype, rank = np.dtype(_TYPES[data[2]]), data[3]
    header = 4 + 4 * rank
    shape = struct.unpack(f">{rank}I", data[4:header]) if len(data) >= header else None
    expected = None if shape is None else header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if expected != len(data):
        raise IdxFormatError(f"{path!r} is truncated or padded: its header describes shape {shape} of "
                             f"{dtype.name} ({expected} bytes in all) but the file holds {len(data)} bytes. "
                             "Download it again.")
    return np.frombuffer(data, dtype=dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def sha256(path):
    """The SHA-256 hex digest of the file ``path``."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(path, expected):
    """Raises `ChecksumError` unless the SHA-256 of ``path`` is ``expected``."""
    actual = sha256(path)
    if actual != expected:
        raise ChecksumError(
            f"Checksum mismatch for {path!r}: its SHA-256 is {actual}, the published file's is {expected}. "
            "The file is damaged, incomplete or a different version: delete it and download it again.")


def _read_bytes(path):
    with open(os.fspath(path), "rb") as file:
        data = file.read()
    if data[:2] == _GZIP_MAGIC:
        try:
            return gzip.decompress(data)
        except (OSError, EOFError) as err:
            raise IdxFormatError(f"{path!r} is a damaged gzip file ({err}). Download it again.") from None
    return data

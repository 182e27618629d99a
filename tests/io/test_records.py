"""TFRecord framing: the TensorFlow-written fixture, our writer's round trip, and corruption errors."""

import gzip
import os
import struct
import zlib

import numpy as np
import pytest

import companion as tf
import companion.io as tfio
from companion._core._errors import DataLossError, NotFoundError
from companion.io._records import frame, masked_crc32c, read_records

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")
TF_FILE = os.path.join(FIXTURES, "tf_examples.tfrecord")


@pytest.fixture(scope="module")
def tf_records():
    """The serialized Examples that TensorFlow wrote into the fixture files."""
    return list(np.load(os.path.join(FIXTURES, "tf_examples_expected.npz"), allow_pickle=True)["records"])


def test_masked_crc32c_matches_the_crc32c_check_value_and_mask():
    crc = 0xE3069283  # CRC-32C of b"123456789", the standard check value
    masked = (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    assert masked_crc32c(b"123456789") == masked


def test_frame_layout():
    record = frame(b"abc")
    length, length_crc = struct.unpack("<QI", record[:12])
    assert length == 3 and length_crc == masked_crc32c(record[:8])
    assert record[12:15] == b"abc"
    assert struct.unpack("<I", record[15:])[0] == masked_crc32c(b"abc")


def test_reads_the_file_tensorflow_wrote(tf_records):
    assert list(read_records(TF_FILE)) == tf_records


def test_reads_the_gzip_file_tensorflow_wrote(tf_records):
    assert list(read_records(TF_FILE + ".gz", "GZIP")) == tf_records


def test_writer_output_is_byte_identical_to_tensorflow(tmp_path, tf_records):
    path = tmp_path / "ours.tfrecord"
    with tfio.TFRecordWriter(str(path)) as writer:
        for record in tf_records:
            writer.write(record)
    assert path.read_bytes() == open(TF_FILE, "rb").read()


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_writer_round_trip(tmp_path, compression):
    path = tmp_path / "data.tfrecord"
    records = [b"", b"x", os.urandom(1000), b"last"]
    with tfio.TFRecordWriter(path, tfio.TFRecordOptions(compression_type=compression)) as writer:
        for record in records:
            writer.write(record)
    assert list(read_records(path, compression)) == records


def test_compressed_files_use_the_standard_streams(tmp_path):
    gz, zl = tmp_path / "a.gz", tmp_path / "a.zlib"
    with tfio.TFRecordWriter(gz, "GZIP") as writer:
        writer.write(b"hello")
    with tfio.TFRecordWriter(zl, "ZLIB") as writer:
        writer.write(b"hello")
    assert gzip.decompress(gz.read_bytes()) == frame(b"hello")
    assert zlib.decompress(zl.read_bytes()) == frame(b"hello")


def test_writer_accepts_string_tensors_and_str(tmp_path):
    path = tmp_path / "t.tfrecord"
    with tfio.TFRecordWriter(path) as writer:
        writer.write(tf.constant(b"tensor"))
        writer.write("text")
    assert list(read_records(path)) == [b"tensor", b"text"]


def test_writer_errors(tmp_path):
    writer = tfio.TFRecordWriter(tmp_path / "w.tfrecord")
    with pytest.raises(TypeError, match="SerializeToString"):
        writer.write(3)
    writer.close()
    writer.close()  # closing twice is fine
    with pytest.raises(ValueError, match="closed"):
        writer.write(b"late")
    with pytest.raises(ValueError, match="compression_type"):
        tfio.TFRecordOptions(compression_type="BZ2")


def _corrupt(path, offset):
    data = bytearray(open(TF_FILE, "rb").read())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


def test_corrupted_data_raises_data_loss_error(tmp_path):
    path = _corrupt(tmp_path / "bad.tfrecord", 40)  # inside the first record's data
    with pytest.raises(DataLossError, match="index 0.*checksum of its data") as info:
        list(read_records(path))
    assert isinstance(info.value, tfio.RecordCorruptedError) and isinstance(info.value, IOError)


def test_corrupted_length_raises(tmp_path):
    path = _corrupt(tmp_path / "bad.tfrecord", 2)
    with pytest.raises(tfio.RecordCorruptedError, match="checksum of its length"):
        list(read_records(path))


def test_truncated_file_raises_after_the_complete_records(tmp_path, tf_records):
    data = open(TF_FILE, "rb").read()
    path = tmp_path / "short.tfrecord"
    path.write_bytes(data[:-5])
    reader = read_records(path)
    assert [next(reader), next(reader)] == tf_records[:2]
    with pytest.raises(tfio.RecordCorruptedError, match="index 2.*ends after"):
        next(reader)


def test_compressed_file_read_without_compression_hints_at_it():
    with pytest.raises(tfio.RecordCorruptedError, match="compression_type='GZIP'"):
        list(read_records(TF_FILE + ".gz"))


def test_missing_file_raises_not_found(tmp_path):
    with pytest.raises(NotFoundError, match="not found"):
        list(read_records(tmp_path / "nothing.tfrecord"))

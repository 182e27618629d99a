"""FixedLengthRecordDataset, and the file readers as Dataset subclasses (expected values: what TF 2.21 gave,
tests/parity/data/file_reader_classes.py)."""

import gzip

import pytest

import companion as tf


@pytest.fixture
def binary_files(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"HH" + b"abcdefghijkl" + b"F")
    (tmp_path / "b.bin").write_bytes(b"HH" + b"mnopqr" + b"F")
    (tmp_path / "g.gz").write_bytes(gzip.compress(b"xyzuvw"))
    return tmp_path


def _records(dataset):
    return list(dataset.as_numpy_iterator())


def test_records_skip_the_header_and_footer_file_after_file(binary_files):
    paths = [str(binary_files / "a.bin"), str(binary_files / "b.bin")]
    dataset = tf.data.FixedLengthRecordDataset(paths, 3, header_bytes=2, footer_bytes=1)
    assert dataset.element_spec == tf.TensorSpec([], tf.string)
    assert _records(dataset) == [b"abc", b"def", b"ghi", b"jkl", b"mno", b"pqr"]
    assert _records(tf.data.FixedLengthRecordDataset(paths[0], 4, 2, 1)) == [b"abcd", b"efgh", b"ijkl"]
    gzipped = tf.data.FixedLengthRecordDataset(str(binary_files / "g.gz"), 2, compression_type="GZIP")
    assert _records(gzipped) == [b"xy", b"zu", b"vw"]


def test_parallel_reads_take_one_record_from_each_file_in_turn(binary_files):
    paths = [str(binary_files / "a.bin"), str(binary_files / "b.bin")]
    dataset = tf.data.FixedLengthRecordDataset(paths, 3, header_bytes=2, footer_bytes=1, num_parallel_reads=2)
    assert _records(dataset) == [b"abc", b"mno", b"def", b"pqr", b"ghi", b"jkl"]


def test_a_body_that_is_not_whole_records_and_a_missing_file_raise_tfs_errors(binary_files):
    path = str(binary_files / "a.bin")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Excluding the header \(2 bytes\) and footer "
                       r"\(1 bytes\), input file .*a\.bin\" has body length 12 bytes, which is not an exact "
                       r"multiple of the record length \(5 bytes\)"):
        _records(tf.data.FixedLengthRecordDataset(path, 5, header_bytes=2, footer_bytes=1))
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        _records(tf.data.FixedLengthRecordDataset(str(binary_files / "none"), 5))


@pytest.mark.parametrize("record_bytes, error", [(0, ValueError), (2.5, TypeError), ("3", TypeError)])
def test_a_record_length_that_is_not_a_positive_integer_is_refused(binary_files, record_bytes, error):
    with pytest.raises(error, match="record_bytes"):
        tf.data.FixedLengthRecordDataset(str(binary_files / "a.bin"), record_bytes)


def test_the_readers_are_dataset_classes_with_tfs_names(binary_files, tmp_path):
    text = tmp_path / "lines.txt"
    text.write_text("1,x\n")
    readers = [(tf.data.TFRecordDataset([]), tf.data.TFRecordDataset, "TFRecordDatasetV2"),
               (tf.data.TextLineDataset(str(text)), tf.data.TextLineDataset, "TextLineDatasetV2"),
               (tf.data.FixedLengthRecordDataset(str(binary_files / "a.bin"), 1),
                tf.data.FixedLengthRecordDataset, "FixedLengthRecordDatasetV2"),
               (tf.data.experimental.CsvDataset(str(text), [tf.int32, ["?"]]),
                tf.data.experimental.CsvDataset, "CsvDatasetV2"),
               (tf.data.experimental.RandomDataset(1), tf.data.experimental.RandomDataset, "RandomDatasetV2")]
    for dataset, reader, name in readers:
        assert isinstance(dataset, reader) and isinstance(dataset, tf.data.Dataset)
        assert type(dataset).__name__ == name and repr(dataset).startswith(f"<{name} ")
        assert not isinstance(dataset.map(lambda *x: x), reader)  # a transformation is a Dataset of its own
    assert [tuple(r) for r in readers[3][0].as_numpy_iterator()] == [(1, b"x")]

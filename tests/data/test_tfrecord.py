"""TFRecordDataset: the TensorFlow-written fixture, TensorFlow's interleave order, errors, threads."""

import os
import threading

import numpy as np
import pytest

import companion as tf
import companion.io as tfio
import companion.train  # noqa: F401 - makes tf.train available however companion/__init__ is wired
from companion._core._errors import DataLossError, NotFoundError
from companion.data._tfrecord import TFRecordDataset, filename_list, interleave_records

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")
TF_FILE = os.path.join(FIXTURES, "tf_examples.tfrecord")
COUNTS = {"a": 3, "b": 1, "c": 2, "d": 4, "e": 1}
# What TFRecordDataset(files, num_parallel_reads=n) gave for these files (TensorFlow 2.21).
TF_ORDER = {
    1: ["a0", "a1", "a2", "b0", "c0", "c1", "d0", "d1", "d2", "d3", "e0"],
    2: ["a0", "b0", "a1", "a2", "c0", "c1", "d0", "d1", "e0", "d2", "d3"],
    3: ["a0", "b0", "c0", "a1", "c1", "a2", "d0", "d1", "e0", "d2", "d3"],
    8: ["a0", "b0", "c0", "d0", "e0", "a1", "c1", "d1", "a2", "d2", "d3"],
}


@pytest.fixture
def files(tmp_path):
    paths = []
    for name, count in COUNTS.items():
        path = str(tmp_path / f"{name}.tfrecord")
        with tfio.TFRecordWriter(path) as writer:
            for i in range(count):
                writer.write(f"{name}{i}".encode())
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def tf_records():
    return list(np.load(os.path.join(FIXTURES, "tf_examples_expected.npz"), allow_pickle=True)["records"])


@pytest.mark.parametrize("cycle_length", sorted(TF_ORDER))
def test_interleave_order_is_tensorflows(files, cycle_length):
    assert [r.decode() for r in interleave_records(files, "", cycle_length)] == TF_ORDER[cycle_length]


def test_reads_tensorflows_files_in_parallel(tf_records):
    plain = list(interleave_records([TF_FILE, TF_FILE], "", 2))
    assert plain == [r for r in tf_records for _ in range(2)]
    assert list(interleave_records([TF_FILE + ".gz"], "GZIP", 4)) == tf_records


def test_corruption_in_a_reader_thread_reaches_the_consumer(tmp_path, files):
    data = bytearray(open(TF_FILE, "rb").read())
    data[100] ^= 1
    bad = tmp_path / "bad.tfrecord"
    bad.write_bytes(bytes(data))
    with pytest.raises(DataLossError, match="corrupted record at index 0"):
        list(interleave_records([files[0], str(bad)], "", 2))
    with pytest.raises(NotFoundError):
        list(interleave_records([files[0], str(tmp_path / "missing")], "", 2))


def _reader_threads():
    return [t for t in threading.enumerate() if t.name.startswith("companion-tfrecord-reader")]


def test_threads_stop_when_the_consumer_stops_early(files):
    before = len(_reader_threads())
    for _ in range(200):
        records = interleave_records(files * 3, "", 4)
        next(records)
        records.close()
    assert len(_reader_threads()) == before


def test_filename_list_forms(files):
    assert filename_list(files[0]) == [files[0]]
    assert filename_list(tf.constant(files[:2])) == files[:2]
    assert filename_list([files[0].encode()]) == [files[0]]
    assert filename_list([]) == []
    assert list(TFRecordDataset([])) == [] and list(tf.data.TextLineDataset([])) == []  # as TF: no records


def test_dataset_of_the_tensorflow_fixture(tf_records):
    dataset = TFRecordDataset(TF_FILE)
    records = list(dataset)
    assert all(r.dtype == tf.string and r.shape == [] for r in records)
    assert [r.numpy() for r in records] == tf_records
    gzipped = TFRecordDataset([TF_FILE + ".gz"], compression_type="GZIP")
    assert [r.numpy() for r in gzipped] == tf_records


def test_dataset_parallel_reads_and_parse(files, tf_records):
    dataset = TFRecordDataset(files, num_parallel_reads=2)
    assert [r.numpy().decode() for r in dataset] == TF_ORDER[2]
    assert [r.numpy().decode() for r in dataset] == TF_ORDER[2]  # iterates again
    spec = {"label": tfio.FixedLenFeature([], tf.int64)}
    labels = TFRecordDataset(TF_FILE).map(lambda r: tfio.parse_single_example(r, spec)["label"])
    assert [int(x) for x in labels] == [0, 1, 0]


def test_dataset_round_trip_of_examples(tmp_path):
    path = str(tmp_path / "examples.tfrecord")
    with tfio.TFRecordWriter(path, "GZIP") as writer:
        for i in range(5):
            feature = {"x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i / 2]))}
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    batch = next(iter(TFRecordDataset(path, "GZIP").batch(5)))
    parsed = tfio.parse_example(batch, {"x": tfio.FixedLenFeature([2], tf.float32)})
    np.testing.assert_allclose(parsed["x"].numpy(), [[i, i / 2] for i in range(5)])

"""TextLineDataset, Dataset.list_files and Dataset.counter (expected values: what TF 2.21 gave)."""

import gzip
import os

import pytest

import companion as tf


@pytest.fixture
def text_files(tmp_path):
    for name, text in [("a", "a1\r\na2\n\na4"), ("b", "b1\nb2\n"), ("c", ""), ("d", "\n")]:
        (tmp_path / f"{name}.txt").write_bytes(text.encode())
    with gzip.open(tmp_path / "z.gz", "wb") as file:
        file.write(b"x\ny\n")
    return tmp_path


def _lines(dataset):
    return list(dataset.as_numpy_iterator())


def test_lines_lose_their_ends_and_empty_lines_stay(text_files):
    read = lambda name: _lines(tf.data.TextLineDataset(str(text_files / name)))  # noqa: E731
    assert read("a.txt") == [b"a1", b"a2", b"", b"a4"]
    assert read("b.txt") == [b"b1", b"b2"]
    assert read("c.txt") == [] and read("d.txt") == [b""]
    assert _lines(tf.data.TextLineDataset(str(text_files / "z.gz"), compression_type="GZIP")) == [b"x", b"y"]
    paths = [str(text_files / "a.txt"), str(text_files / "b.txt")]
    both = tf.data.TextLineDataset(paths, num_parallel_reads=2)
    assert _lines(both) == [b"a1", b"b1", b"a2", b"b2", b"", b"a4"]
    with pytest.raises(tf.errors.NotFoundError):
        _lines(tf.data.TextLineDataset(str(text_files / "nope.txt")))


def test_list_files_matches_a_pattern_shuffled_unless_asked_not_to(text_files):
    pattern = str(text_files / "*.txt")
    names = _lines(tf.data.Dataset.list_files(pattern, shuffle=False))
    assert [os.path.basename(p.decode()) for p in names] == ["a.txt", "b.txt", "c.txt", "d.txt"]
    orders = {tuple(_lines(tf.data.Dataset.list_files(pattern, seed=s))) for s in range(8)}
    assert len(orders) > 1 and all(sorted(order) == names for order in orders)  # shuffled by default
    files = tf.data.Dataset.list_files(pattern, shuffle=False)
    lines = files.interleave(tf.data.TextLineDataset, cycle_length=1)
    assert _lines(lines) == [b"a1", b"a2", b"", b"a4", b"b1", b"b2", b""]
    with pytest.raises(tf.errors.InvalidArgumentError, match="no files matched"):
        tf.data.Dataset.list_files(str(text_files / "*.csv"))


def test_counter_counts_forever():
    assert int(tf.data.Dataset.counter().cardinality()) == tf.data.INFINITE_CARDINALITY
    assert [int(x) for x in tf.data.Dataset.counter(3, -1, dtype=tf.int32).take(3)] == [3, 2, 1]
    pairs = tf.data.Dataset.zip((tf.data.Dataset.counter(), tf.data.Dataset.range(10, 13)))
    assert [(int(a), int(b)) for a, b in pairs] == [(0, 10), (1, 11), (2, 12)]

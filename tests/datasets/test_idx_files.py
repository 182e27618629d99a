"""IDX parsing on small files written here, and the mnist/fashion_mnist cache: checksums and messages."""

import gzip
import hashlib
import struct

import numpy as np
import pytest

import companion.datasets as tfds
from companion._core._errors import DataLossError, NotFoundError
from companion.datasets import _mnist
from companion.datasets._keras_style import fashion_mnist_load_data, mnist_load_data

TYPE_CODES = {np.uint8: 0x08, np.int8: 0x09, np.int16: 0x0B, np.int32: 0x0C, np.float32: 0x0D,
              np.float64: 0x0E}


def idx_bytes(array):
    """The IDX encoding of ``array``, written from the format's description (not by companion)."""
    header = bytes([0, 0, TYPE_CODES[array.dtype.type], array.ndim])
    header += struct.pack(f">{array.ndim}I", *array.shape)
    return header + array.astype(array.dtype.newbyteorder(">")).tobytes()


@pytest.mark.parametrize("dtype", list(TYPE_CODES))
def test_read_idx_every_type(tmp_path, rng, dtype):
    array = (rng.normal(size=(3, 4, 2)) * 50).astype(dtype)
    path = tmp_path / "a.idx"
    path.write_bytes(idx_bytes(array))
    got = tfds.read_idx(path)
    assert got.dtype == np.dtype(dtype) and got.dtype.isnative
    np.testing.assert_array_equal(got, array)


def test_read_idx_gzipped(tmp_path):
    array = np.arange(10, dtype=np.uint8)
    path = tmp_path / "labels.gz"
    path.write_bytes(gzip.compress(idx_bytes(array)))
    np.testing.assert_array_equal(tfds.read_idx(path), array)


def test_read_idx_errors(tmp_path):
    bad = tmp_path / "bad"
    bad.write_bytes(b"\x01\x02\x03\x04")
    with pytest.raises(tfds.IdxFormatError, match="not an IDX file"):
        tfds.read_idx(bad)
    short = tmp_path / "short"
    short.write_bytes(idx_bytes(np.zeros((4, 3), np.uint8))[:-1])
    with pytest.raises(DataLossError, match=r"truncated.*\(4, 3\)"):
        tfds.read_idx(short)


def write_set(folder, n_train=6, n_test=3, gz=True):
    """Four small MNIST-style files; returns their SHA-256s and the arrays."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    arrays = {"train_images": rng.integers(0, 256, (n_train, 28, 28), dtype=np.uint8),
              "train_labels": np.arange(n_train, dtype=np.uint8) % 10,
              "test_images": rng.integers(0, 256, (n_test, 28, 28), dtype=np.uint8),
              "test_labels": np.arange(n_test, dtype=np.uint8)}
    hashes = {}
    for key, base in _mnist.FILES.items():
        data = gzip.compress(idx_bytes(arrays[key])) if gz else idx_bytes(arrays[key])
        name = base + ".gz" if gz else base
        (folder / name).write_bytes(data)
        hashes[name] = hashlib.sha256(data).hexdigest()
    return hashes, arrays


def test_load_reads_the_cache_with_matching_checksums(tmp_path):
    hashes, arrays = write_set(tmp_path / "mnist")
    source = tfds.builder("mnist", data_dir=str(tmp_path), checksums=hashes)
    train = source.as_arrays("train")
    assert train["image"].shape == (6, 28, 28, 1) and train["label"].dtype == np.int64
    np.testing.assert_array_equal(train["image"][..., 0], arrays["train_images"])
    assert source.info.splits["test"].num_examples == 3


def test_published_checksums_reject_other_files(tmp_path):
    write_set(tmp_path / "fashion_mnist")
    with pytest.raises(tfds.ChecksumError, match="published file's is 3aede38d") as info:
        tfds.builder("fashion_mnist", data_dir=tmp_path).as_arrays("train")
    assert isinstance(info.value, DataLossError) and isinstance(info.value, OSError)
    assert "train-images-idx3-ubyte.gz" in str(info.value)


def test_pinned_hashes_are_the_published_ones():
    assert _mnist.SHA256["mnist"]["train-images-idx3-ubyte.gz"].startswith("440fcabf73cc546f")
    assert _mnist.SHA256["fashion_mnist"]["t10k-labels-idx1-ubyte.gz"].startswith("67da17c76eaffca5")
    assert all(len(h) == 64 for files in _mnist.SHA256.values() for h in files.values())


def test_uncompressed_files_are_accepted(tmp_path, monkeypatch):
    write_set(tmp_path / "mnist", gz=False)
    monkeypatch.setenv(_mnist.ENV_VAR, str(tmp_path))
    (x_train, y_train), (x_test, y_test) = mnist_load_data()
    assert x_train.shape == (6, 28, 28) and y_train.dtype == np.uint8 and len(y_test) == 3


def test_missing_files_name_all_four_and_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(_mnist.ENV_VAR, str(tmp_path / "cache"))
    with pytest.raises(NotFoundError) as info:
        fashion_mnist_load_data()
    message = str(info.value)
    assert isinstance(info.value, FileNotFoundError)
    assert str(tmp_path / "cache" / "fashion_mnist") in message
    for base in _mnist.FILES.values():
        assert f"{base}.gz" in message
    assert "COMPANION_DATA_DIR" in message and "Nothing is downloaded" in message


def test_partly_missing(tmp_path):
    write_set(tmp_path / "mnist")
    (tmp_path / "mnist" / "t10k-labels-idx1-ubyte.gz").unlink()
    with pytest.raises(tfds.DatasetFilesNotFoundError, match=r"cache: t10k-labels-idx1-ubyte \(.gz or not\)"):
        tfds.load("mnist", split="train", data_dir=tmp_path, batch_size=-1)


def test_data_folder_defaults(monkeypatch):
    monkeypatch.delenv(_mnist.ENV_VAR, raising=False)
    assert _mnist.data_folder("mnist").endswith(".companion/datasets/mnist")
    assert _mnist.data_folder("mnist", "/data") == "/data/mnist"

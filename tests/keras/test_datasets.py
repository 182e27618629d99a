"""keras.datasets loaders return the arrays of companion.datasets, split into train and test."""

import numpy as np
import pytest

import companion as tf


def test_digits_load_data_shapes_and_split():
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.digits.load_data()
    assert len(x_train) + len(x_test) == 1797 and len(x_train) == len(y_train)
    assert x_train.dtype == np.uint8 or x_train.dtype.kind in "fiu"
    assert set(np.unique(np.concatenate([y_train, y_test]))) == set(range(10))


def test_mnist_without_files_names_what_to_put_where(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="train-images-idx3-ubyte"):
        tf.keras.datasets.mnist.load_data()

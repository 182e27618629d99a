"""digits and breast_cancer: the scikit-learn tables, as tfds-style arrays and Keras-style splits."""

import subprocess
import sys

import numpy as np
import pytest

import companion as tf
import companion.datasets as tfds
from companion.datasets._keras_style import breast_cancer_load_data, digits_load_data

sklearn = pytest.importorskip("sklearn.datasets")


def test_digits_are_sklearns_rescaled_to_uint8():
    bunch = sklearn.load_digits()
    arrays = tfds.builder("digits").as_arrays("train")
    assert arrays["image"].shape == (1797, 8, 8, 1) and arrays["image"].dtype == np.uint8
    np.testing.assert_array_equal(arrays["image"][..., 0], np.round(bunch.images * 255 / 16).astype(np.uint8))
    np.testing.assert_array_equal(arrays["label"], bunch.target)


def test_digits_upscaled():
    arrays = tfds.builder("digits", image_size=28).as_arrays("train[:5]")
    assert arrays["image"].shape == (5, 28, 28, 1)
    assert arrays["image"].max() > 200


def test_breast_cancer_table():
    bunch = sklearn.load_breast_cancer()
    arrays = tfds.builder("breast_cancer").as_arrays("train[10:20]")
    np.testing.assert_allclose(arrays["features"], bunch.data[10:20].astype(np.float32))
    np.testing.assert_array_equal(arrays["label"], bunch.target[10:20])


def test_breast_cancer_feature_names_are_sklearns():
    info = tfds.builder("breast_cancer").info
    assert info.metadata["feature_names"] == [str(n) for n in sklearn.load_breast_cancer().feature_names]


def test_the_tables_are_read_without_importing_scikit_learn():
    # scikit-learn's import (SciPy's with it) took a second of every lab that loads digits
    code = ("import sys, companion.datasets as tfds; tfds.builder('digits').as_arrays('train[:3]'); "
            "tfds.builder('breast_cancer').as_arrays('train[:3]'); print('sklearn' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_load_whole_tensors():
    (x, y), info = tfds.load("breast_cancer", split="train[:80%]", batch_size=-1, as_supervised=True,
                             with_info=True)
    assert x.shape == [455, 30] and x.dtype == tf.float32 and y.dtype == tf.int64
    both = tfds.load("digits", split=["train[:10%]", "train[10%:]"], batch_size=-1)
    assert [b["image"].shape[0] for b in both] == [180, 1617]
    everything = tfds.load("digits", batch_size=-1)
    assert list(everything) == ["train"]


def test_keras_style_division():
    (x_train, y_train), (x_test, y_test) = breast_cancer_load_data(test_split=0.25, seed=1)
    assert len(x_train) == 426 and len(x_test) == 143
    again = breast_cancer_load_data(test_split=0.25, seed=1)
    np.testing.assert_array_equal(again[0][0], x_train)
    (dx, dy), _ = digits_load_data(image_size=28)
    assert dx.shape == (1437, 28, 28) and dy.dtype == np.uint8
    with pytest.raises(ValueError, match="test_split"):
        digits_load_data(test_split=1.0)


def test_without_scikit_learn_the_error_says_how_to_install_it(monkeypatch):
    from companion.datasets import _sklearn_sets

    monkeypatch.setattr(_sklearn_sets.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ImportError, match=r"digits\.csv\.gz was not found\. Install it with: pip install"):
        _sklearn_sets._digits()

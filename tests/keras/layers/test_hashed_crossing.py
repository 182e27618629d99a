"""HashedCrossing against a pure-Python model of TF's cross_hashed (FingerprintCat64 of Fingerprint64s)."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers
from companion.strings._farmhash import fingerprint64

_M = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995


def _shift_mix(v):
    return v ^ (v >> 47)


def py_cross(features, num_bins):
    """TF's HashCrosser: key 0xDECAFCAFFE, FingerprintCat64 with each feature's hash, modulo the bins."""
    result = 0xDECAFCAFFE
    for feature in features:
        h = fingerprint64(feature.encode()) if isinstance(feature, str) else int(feature) & _M
        result ^= _MUL
        result ^= (_shift_mix((h * _MUL) & _M) * _MUL) & _M
        result = (result * _MUL) & _M
        result = (_shift_mix(result) * _MUL) & _M
        result = _shift_mix(result)
    return result % num_bins


def test_known_tensorflow_ids():  # recorded from tf.sparse.cross_hashed (TF 2.21)
    ids = layers.HashedCrossing(1000)((tf.constant([[1], [2]], tf.int64), tf.constant([["a"], ["b"]])))
    np.testing.assert_array_equal(ids.numpy().ravel(), [445, 149])
    ids = layers.HashedCrossing(2 ** 40)((np.array([1, -2]), np.array([3, 4]), np.array(["x", "y"])))
    np.testing.assert_array_equal(ids.numpy(), [565438111928, 728105875796])


def test_matches_the_python_model_on_strings_of_every_length_and_large_ints():
    words = ["", "a", "seventeen letters", "x" * 40,
             "a much longer string, over sixty-four bytes long, for the loop"]
    ints = [0, -1, 2 ** 40, -(2 ** 62), 7]
    ids = layers.HashedCrossing(10 ** 9)((np.array(words), np.array(ints, np.int64)))
    assert ids.dtype == tf.int64
    np.testing.assert_array_equal(ids.numpy(), [py_cross([w, i], 10 ** 9) for w, i in zip(words, ints)])


def test_one_hot_shapes_tracing_and_datasets():
    pair = (np.array([[1], [2]], np.int32), np.array([["a"], ["b"]]))
    ids = [py_cross([1, "a"], 5), py_cross([2, "b"], 5)]
    hot = layers.HashedCrossing(5, output_mode="one_hot")(pair)
    assert hot.dtype == tf.float32
    np.testing.assert_array_equal(hot.numpy(), np.eye(5)[ids])
    assert layers.HashedCrossing(5)((tf.constant(1), tf.constant("a"))).shape == ()
    layer = layers.HashedCrossing(97)
    traced = tf.function(lambda a, b: layer((a, b)))(tf.constant([5, 6]), tf.constant([1, 2]))
    np.testing.assert_array_equal(traced.numpy(), [py_cross([5, 1], 97), py_cross([6, 2], 97)])
    data = tf.data.Dataset.from_tensor_slices(({"a": [1, 2], "b": ["x", "y"]}))
    got = [int(v) for v in data.map(lambda f: layers.HashedCrossing(11)((f["a"], f["b"])))]
    assert got == [py_cross([1, "x"], 11), py_cross([2, "y"], 11)]
    assert layers.HashedCrossing(5, output_mode="one_hot").compute_output_shape(((None, 1), (None, 1))) == (
        None, 5)


def test_config_round_trip():
    layer = layers.HashedCrossing(7, output_mode="one_hot", name="h")
    config = layer.get_config()
    assert config == {"num_bins": 7, "output_mode": "one_hot", "sparse": False, "name": "h",
                      "dtype": "float32"}
    assert layers.HashedCrossing.from_config(config).get_config() == config
    assert layers.HashedCrossing(3).get_config()["dtype"] == "int64"


@pytest.mark.parametrize("call, match", [
    (lambda: layers.HashedCrossing(5)(np.array([1])), "list or tuple of inputs"),
    (lambda: layers.HashedCrossing(5)([np.array([1])]), "at least two inputs"),
    (lambda: layers.HashedCrossing(5)((np.array([1.0]), np.array([2]))), "integer or string dtype"),
    (lambda: layers.HashedCrossing(5)((np.array([[1, 2]]), np.array([[2, 3]]))), "should have shape"),
    (lambda: layers.HashedCrossing(5)((np.array([1, 2]), np.array([2]))), "equal shape"),
    (lambda: layers.HashedCrossing(5, output_mode="multi_hot"), "Unknown value for `output_mode`"),
    (lambda: layers.HashedCrossing(0), "num_bins"),
    (lambda: layers.HashedCrossing(5, sparse=True), "sparse"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()

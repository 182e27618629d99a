"""parse_single_example / parse_example against what TensorFlow parsed from the same records."""

import os

import numpy as np
import pytest

import companion as tf
import companion.io as tfio
import companion.train as train
from companion._core._errors import InvalidArgumentError

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")
FEATURES = {
    "ints": tfio.FixedLenFeature([3], tf.int64),
    "floats": tfio.FixedLenFeature([2], tf.float32),
    "label": tfio.FixedLenFeature([], tf.int64),
    "name": tfio.FixedLenFeature([], tf.string),
    "image": tfio.FixedLenFeature([], tf.string),
    "tags": tfio.VarLenFeature(tf.int64),
    "words": tfio.VarLenFeature(tf.string),
    "weight": tfio.FixedLenFeature([], tf.float32, default_value=-1.0),
}


@pytest.fixture(scope="module")
def expected():
    return np.load(os.path.join(FIXTURES, "tf_examples_expected.npz"), allow_pickle=True)


def _assert_same(got, want):
    got = got.numpy()
    want = np.asarray(want)
    if want.dtype.kind in "SO":
        assert np.asarray(got, dtype=object).tolist() == np.asarray(want, dtype=object).tolist()
    else:
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def _assert_parsed(parsed, expected, prefix):
    assert sorted(parsed) == sorted(FEATURES)
    for key, value in parsed.items():
        if isinstance(value, tfio.SparseTensor):
            for part in ("indices", "values", "dense_shape"):
                _assert_same(getattr(value, part), expected[f"{prefix}/{key}/{part}"])
        else:
            _assert_same(value, expected[f"{prefix}/{key}"])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_parse_single_example_matches_tensorflow(expected, index):
    record = expected["records"][index]
    _assert_parsed(tfio.parse_single_example(record, FEATURES), expected, f"single{index}")


def test_parse_single_example_accepts_a_string_tensor(expected):
    parsed = tfio.parse_single_example(tf.constant(expected["records"][0]), {"label": FEATURES["label"]})
    assert int(parsed["label"]) == 0


def test_parse_example_matches_tensorflow(expected):
    parsed = tfio.parse_example(list(expected["records"]), FEATURES)
    _assert_parsed(parsed, expected, "batch")


def test_parse_example_on_an_empty_batch():
    spec = {"x": tfio.FixedLenFeature([2], tf.float32), "v": tfio.VarLenFeature(tf.int64)}
    parsed = tfio.parse_example([], spec)
    assert parsed["x"].shape == [0, 2] and parsed["v"].dense_shape.numpy().tolist() == [0, 0]


def _record(**features):
    def feature(value):
        if isinstance(value[0], bytes):
            return train.Feature(bytes_list=train.BytesList(value=value))
        if isinstance(value[0], float):
            return train.Feature(float_list=train.FloatList(value=value))
        return train.Feature(int64_list=train.Int64List(value=value))

    return train.Example(features=train.Features(
        feature={k: feature(v) for k, v in features.items()})).SerializeToString()


def test_default_value_fills_the_shape():
    spec = {"b": tfio.FixedLenFeature([2, 2], tf.int64, default_value=7)}
    parsed = tfio.parse_single_example(_record(a=[1]), spec)
    np.testing.assert_array_equal(parsed["b"].numpy(), np.full((2, 2), 7))


def test_missing_required_feature():
    with pytest.raises(InvalidArgumentError, match="Feature: b .*required"):
        tfio.parse_single_example(_record(a=[1]), {"b": tfio.FixedLenFeature([], tf.int64)})


def test_wrong_number_of_values():
    with pytest.raises(InvalidArgumentError, match="needs 3 values but the record has 2"):
        tfio.parse_single_example(_record(a=[1, 2]), {"a": tfio.FixedLenFeature([3], tf.int64)})


def test_wrong_kind_of_values():
    with pytest.raises(InvalidArgumentError, match="Data types don't match"):
        tfio.parse_single_example(_record(a=[1.5]), {"a": tfio.FixedLenFeature([], tf.int64)})


def test_not_an_example():
    with pytest.raises(InvalidArgumentError, match="tf.train.Example"):
        tfio.parse_single_example(b"\xff\xff\xff", {"a": tfio.FixedLenFeature([], tf.int64)})


def test_feature_spec_errors():
    with pytest.raises(ValueError, match="int64, float32 and string"):
        tfio.FixedLenFeature([], tf.int32)
    with pytest.raises(ValueError, match="VarLenFeature"):
        tfio.FixedLenFeature([None], tf.int64)
    with pytest.raises(TypeError, match="FixedLenFeature or VarLenFeature"):
        tfio.parse_single_example(_record(a=[1]), {"a": tf.int64})
    with pytest.raises(TypeError, match="parse_example"):
        tfio.parse_single_example([b"a", b"b"], {"a": tfio.VarLenFeature(tf.int64)})


def test_sparse_to_dense():
    parsed = tfio.parse_example([_record(a=[1, 2, 3]), _record(a=[4])], {"a": tfio.VarLenFeature(tf.int64)})
    np.testing.assert_array_equal(tfio.sparse_to_dense(parsed["a"]).numpy(), [[1, 2, 3], [4, 0, 0]])
    np.testing.assert_array_equal(tfio.sparse_to_dense(parsed["a"], default_value=-1).numpy(),
                                  [[1, 2, 3], [4, -1, -1]])
    records = [_record(w=[b"x"]), _record(w=[b"y", b"z"])]
    words = tfio.parse_example(records, {"w": tfio.VarLenFeature(tf.string)})
    assert tfio.sparse_to_dense(words["w"]).numpy().tolist() == [[b"x", b""], [b"y", b"z"]]

"""The Example protocol buffers: TensorFlow's wire format, both ways."""

import os

import numpy as np
import pytest

import companion as tf
import companion.train as train

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")


@pytest.fixture(scope="module")
def records():
    return list(np.load(os.path.join(FIXTURES, "tf_examples_expected.npz"), allow_pickle=True)["records"])


def test_parses_what_tensorflow_serialized(records):
    example = train.Example.FromString(records[1])
    feature = example.features.feature
    assert list(feature["ints"].int64_list.value) == [1, -7, 2**40 + 1]
    assert list(feature["floats"].float_list.value) == [0.5, -1.25]
    assert feature["name"].bytes_list.value[0] == b"record-1"
    assert feature["tags"].WhichOneof("kind") == "int64_list"
    assert "weight" not in feature


def test_reserializes_byte_for_byte(records):
    for record in records:
        assert train.Example.FromString(record).SerializeToString(deterministic=True) == record


def test_building_an_example_gives_tensorflows_bytes(records):
    first = train.Example.FromString(records[0]).features.feature
    rebuilt = train.Example(features=train.Features(feature={
        "ints": train.Feature(int64_list=train.Int64List(value=[0, 0, 2**40])),
        "floats": train.Feature(float_list=train.FloatList(value=[0.0, -1.25])),
        "label": train.Feature(int64_list=train.Int64List(value=[0])),
        "name": train.Feature(bytes_list=train.BytesList(value=[b"record-0"])),
        "image": first["image"],
        "tags": train.Feature(int64_list=train.Int64List(value=[])),
        "words": train.Feature(bytes_list=train.BytesList(value=[b"w0", b"w1", b"w2"])),
        "weight": train.Feature(float_list=train.FloatList(value=[0.25])),
    }))
    assert rebuilt.SerializeToString(deterministic=True) == records[0]


def test_feature_kinds_are_a_oneof():
    feature = train.Feature(int64_list=train.Int64List(value=[1]))
    feature.float_list.value.append(2.0)
    assert feature.WhichOneof("kind") == "float_list"


def test_sequence_example_and_names():
    seq = train.SequenceExample()
    seq.feature_lists.feature_list["steps"].feature.add().int64_list.value.append(3)
    assert train.SequenceExample.FromString(seq.SerializeToString()) == seq
    assert train.Example.DESCRIPTOR.full_name == "tensorflow.Example"
    with pytest.raises(AttributeError, match="no attribute"):
        train.NotAMessage


def test_reachable_as_companion_train():
    assert tf.train.Example is train.Example

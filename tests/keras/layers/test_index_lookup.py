"""StringLookup and IntegerLookup against TF 2.21's recorded indices, vocabularies and modes."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers


def test_string_lookup_indices_vocabulary_and_inverse():
    lookup = layers.StringLookup(vocabulary=["a", "b", "c"])
    # TF 2.21: [[1, 3], [0, 2]] (int64); the vocabulary starts with '[UNK]'
    np.testing.assert_array_equal(lookup(tf.constant([["a", "c"], ["d", "b"]])).numpy(), [[1, 3], [0, 2]])
    assert lookup(tf.constant(["a"])).dtype == tf.int64
    assert lookup.get_vocabulary() == ["[UNK]", "a", "b", "c"] and lookup.vocabulary_size() == 4
    inverse = layers.StringLookup(vocabulary=["a", "b", "c"], invert=True)
    assert inverse(tf.constant([1, 3, 0])).numpy().tolist() == [b"a", b"c", b"[UNK]"]
    # TF 2.21: two OOV buckets (farmhash), a mask token at 0
    two = layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=2)
    assert two(tf.constant(["a", "z", "b"])).numpy().tolist() == [2, 1, 3]
    masked = layers.StringLookup(vocabulary=["a", "b"], mask_token="")
    assert masked(tf.constant(["", "a", "q"])).numpy().tolist() == [0, 2, 1]


@pytest.mark.parametrize("mode, inputs, expected", [
    ("one_hot", ["a", "q"], [[0, 1, 0], [1, 0, 0]]),  # TF 2.21
    ("multi_hot", [["a", "b", "a"]], [[0, 1, 1]]),
    ("count", [["a", "b", "a"]], [[0, 2, 1]]),
    ("multi_hot", ["a", "q"], [1, 1, 0]),  # a 1-D input is one sample
])
def test_output_modes(mode, inputs, expected):
    lookup = layers.StringLookup(vocabulary=["a", "b"], output_mode=mode)
    np.testing.assert_array_equal(lookup(tf.constant(inputs)).numpy(), expected)


def test_adapt_orders_by_frequency_then_larger_token():
    lookup = layers.StringLookup()
    lookup.adapt(["b", "a", "b", "a", "c", "d", "d"])
    assert lookup.get_vocabulary() == ["[UNK]", "d", "b", "a", "c"]  # TF 2.21's order
    capped = layers.StringLookup(max_tokens=3)
    capped.adapt(tf.data.Dataset.from_tensor_slices(["x", "y", "x", "z", "x", "y"]).batch(2))
    assert capped.get_vocabulary() == ["[UNK]", "x", "y"]
    numbers = layers.IntegerLookup()
    numbers.adapt([5, 5, 7, 9, 9, 9])
    assert numbers.get_vocabulary() == [-1, 9, 5, 7]


def test_integer_lookup_and_use_in_a_dataset_and_a_model():
    lookup = layers.IntegerLookup(vocabulary=[12, 36, 1138])
    assert lookup(tf.constant([12, 1138, 42])).numpy().tolist() == [1, 3, 0]
    inverse = layers.IntegerLookup(vocabulary=[12, 36], invert=True)
    assert inverse(tf.constant([0, 1, 2])).numpy().tolist() == [-1, 12, 36]
    words = layers.StringLookup(vocabulary=["a", "b"])
    mapped = tf.data.Dataset.from_tensor_slices(["a", "b", "q"]).map(words)
    assert [int(v) for v in mapped] == [1, 2, 0]
    clone = layers.StringLookup.from_config(words.get_config())
    assert clone.get_vocabulary() == words.get_vocabulary()
    with pytest.raises(ValueError, match="repeated"):
        layers.StringLookup(vocabulary=["a", "a"])
    with pytest.raises(ValueError, match="output_mode"):
        layers.StringLookup(output_mode="tf_idf")

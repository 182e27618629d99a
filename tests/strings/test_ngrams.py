"""`tf.strings.ngrams`, with TF 2.21's observed output as the oracle."""

import pytest

import companion as tf


def _texts(tensor):
    return [b.decode() for b in tensor.numpy().ravel().tolist()]


def test_widths_separators_and_padding():
    d = tf.constant(["a", "b", "c", "d"])
    assert _texts(tf.strings.ngrams(d, 2)) == ["a b", "b c", "c d"]
    assert _texts(tf.strings.ngrams(d, 3, separator="_")) == ["a_b_c", "b_c_d"]
    assert tf.strings.ngrams(d, 5).shape == (0,)
    assert _texts(tf.strings.ngrams(d, 5, preserve_short_sequences=True)) == ["a b c d"]
    assert _texts(tf.strings.ngrams(d, [1, 2])) == ["a", "b", "c", "d", "a b", "b c", "c d"]
    assert _texts(tf.strings.ngrams(d, 2, pad_values="#")) == ["# a", "a b", "b c", "c d", "d #"]
    assert _texts(tf.strings.ngrams(d, 3, pad_values=("<s>", "</s>"), padding_width=1)) == [
        "<s> a b", "a b c", "b c d", "c d </s>"]
    wide = tf.strings.ngrams(d, 2, pad_values="#", padding_width=3)  # at most width - 1 on each side
    assert _texts(wide) == ["# a", "a b", "b c", "c d", "d #"]


def test_ranks_and_ragged_rows():
    out = tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2)
    assert out.shape == (2, 2) and _texts(out) == ["a b", "b c", "d e", "e f"]
    ragged = tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), 2)
    assert ragged.to_list() == [[b"a b", b"b c"], []]
    assert tf.strings.ngrams(tf.constant([], tf.string), 2).shape == (0,)


def test_errors_are_tfs():
    with pytest.raises(ValueError, match="rank>0"):
        tf.strings.ngrams(tf.constant("a"), 2)
    with pytest.raises(ValueError, match="greater than 0"):
        tf.strings.ngrams(tf.constant(["a"]), 0)
    with pytest.raises(ValueError, match="requested dtype string"):
        tf.strings.ngrams(tf.constant([1, 2]), 2)

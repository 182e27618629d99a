"""``companion.strings`` gives TF 2.21's values (each expected value below was printed by TF 2.21)."""

import numpy as np
import pytest

import companion as tf

S = tf.strings
X = ["Hello World", "  tensor  ", "héllo"]


def _bytes(t):
    return t.numpy().tolist() if isinstance(t.numpy(), np.ndarray) else t.numpy()


def test_join_and_reduce_join():
    joined = S.join([tf.constant(["a", "b"]), tf.constant(["c", "d"])], separator="-")
    assert _bytes(joined) == [b"a-c", b"b-d"]
    assert _bytes(S.join(["a", tf.constant(["x", "y"])])) == [b"ax", b"ay"]
    grid = tf.constant([["a", "b"], ["c", "d"]])
    assert _bytes(S.reduce_join(grid, axis=1, separator=",")) == [b"a,b", b"c,d"]
    assert _bytes(S.reduce_join(grid, axis=-1)) == [b"ab", b"cd"]
    assert _bytes(S.reduce_join(grid)) == b"abcd"
    kept = S.reduce_join(grid, axis=0, keepdims=True)
    assert kept.shape == (1, 2) and _bytes(kept) == [[b"ac", b"bd"]]


def test_length_case_strip():
    assert _bytes(S.length(X)) == [11, 10, 6]
    assert _bytes(S.length(X, unit="UTF8_CHAR")) == [11, 10, 5]
    assert S.length(X).dtype == tf.int32
    assert _bytes(S.upper(X)) == [b"HELLO WORLD", b"  TENSOR  ", b"H\xc3\xa9LLO"]  # TF: ASCII letters only
    assert _bytes(S.upper("é", encoding="utf-8")) == "É".encode()
    assert _bytes(S.lower(X)) == [b"hello world", b"  tensor  ", "héllo".encode()]
    assert _bytes(S.strip(X)) == [b"Hello World", b"tensor", "héllo".encode()]


def test_as_string_and_to_number():
    assert _bytes(S.as_string(tf.constant([1, -22]))) == [b"1", b"-22"]
    floats = tf.constant([1.5, 2.0, 1 / 3])
    assert _bytes(S.as_string(floats)) == [b"1.500000", b"2.000000", b"0.333333"]
    assert _bytes(S.as_string(floats, precision=2)) == [b"1.50", b"2.00", b"0.33"]
    assert _bytes(S.as_string(tf.constant([1234.5]), scientific=True)) == [b"1.234500e+03"]
    assert _bytes(S.as_string(tf.constant([1234.5, 0.0001]), shortest=True)) == [b"1234.5", b"0.0001"]
    assert _bytes(S.as_string(tf.constant([7]), width=4, fill="0")) == [b"0007"]
    assert _bytes(S.as_string(tf.constant([True, False]))) == [b"true", b"false"]
    numbers = S.to_number(tf.constant(["1.5", "2"]))
    assert numbers.dtype == tf.float32 and _bytes(numbers) == [1.5, 2.0]
    assert _bytes(S.to_number(tf.constant(["15", "-2"]), out_type=tf.int32)) == [15, -2]
    with pytest.raises(tf.errors.InvalidArgumentError):
        S.to_number(tf.constant(["abc"]))


def test_split_scalar_gives_a_tensor_and_vector_a_ragged_tensor():
    assert _bytes(S.split(tf.constant("a b  c"))) == [b"a", b"b", b"c"]
    assert _bytes(S.split(tf.constant("a b c"), maxsplit=1)) == [b"a", b"b c"]
    ragged = S.split(tf.constant(["a b", "c"]))
    assert repr(ragged) == "<companion.RaggedTensor [[b'a', b'b'], [b'c']]>"
    assert ragged.to_list() == [[b"a", b"b"], [b"c"]]
    assert ragged.shape.as_list() == [2, None] and ragged.dtype == tf.string
    assert _bytes(ragged.to_tensor()) == [[b"a", b"b"], [b"c", b""]]
    assert _bytes(ragged[0]) == [b"a", b"b"]
    assert _bytes(ragged.flat_values) == [b"a", b"b", b"c"]
    assert _bytes(ragged.row_lengths()) == [2, 1]
    assert S.split(tf.constant(["a,b,,c"]), sep=",").to_list() == [[b"a", b"b", b"", b"c"]]


def test_substr_and_regex():
    assert _bytes(S.substr(X, 1, 3)) == [b"ell", b" te", "é".encode() + b"l"]
    assert _bytes(S.substr(tf.constant("héllo"), 1, 2, unit="UTF8_CHAR")) == "él".encode()
    assert _bytes(S.regex_replace(X, "l+", "L")) == [b"HeLo WorLd", b"  tensor  ", "héLo".encode()]
    assert _bytes(S.regex_replace(X, "l", "L", replace_global=False)) == [b"HeLlo World", b"  tensor  ",
                                                                         "héLlo".encode()]
    assert _bytes(S.regex_replace(tf.constant("ab12"), r"(\d)", r"<\1>")) == b"ab<1><2>"
    assert _bytes(S.regex_full_match(X, "[A-Z].*")) == [True, False, False]


def test_format():
    assert _bytes(S.format("x={} y={}", (tf.constant(3), tf.constant([1.5, 2.0])))) == b"x=3 y=[1.5 2]"
    assert _bytes(S.format("{}", [tf.constant(["a", "b"])])) == b'["a" "b"]'
    assert _bytes(S.format("{} {}", [tf.constant("a"), tf.constant(True)])) == b'"a" 1'
    assert _bytes(S.format("{}", [tf.range(10)])) == b"[0 1 2 ... 7 8 9]"
    assert _bytes(S.format("{}", [tf.constant([[1.25, 2], [3, 4]])])) == b"[[1.25 2]\n [3 4]]"


def test_unicode_and_bytes():
    assert _bytes(S.unicode_decode(tf.constant("héllo"), "UTF-8")) == [104, 233, 108, 108, 111]
    assert S.unicode_decode(tf.constant(["hé", "a"]), "UTF-8").to_list() == [[104, 233], [97]]
    assert _bytes(S.unicode_encode(tf.constant([104, 233]), "UTF-8")) == "hé".encode()
    assert _bytes(S.unicode_split(tf.constant("hé"), "UTF-8")) == [b"h", "é".encode()]
    assert _bytes(S.bytes_split(tf.constant("hé"))) == [b"h", b"\xc3", b"\xa9"]


def test_operators_and_equality():
    assert _bytes(tf.constant("a") + tf.constant(["b", "c"])) == [b"ab", b"ac"]
    assert _bytes(tf.constant("a") + "b") == b"ab"
    assert _bytes("b" + tf.constant("a")) == b"ba"
    x = tf.constant(X)
    assert _bytes(tf.equal(x, "héllo")) == [False, False, True]
    assert _bytes(x == "héllo") == [False, False, True]
    assert _bytes(x != "héllo") == [True, True, False]


def test_strings_in_a_function_come_back_as_bytes():
    out = tf.function(lambda s: S.upper(s) + "!")(tf.constant(["ab", "c"]))
    assert out.dtype == tf.string and _bytes(out) == [b"AB!", b"C!"]
    assert tf.function(lambda: S.join(["a", "b"]))().numpy() == b"ab"
    assert _bytes(tf.function(lambda s: S.length(s))(tf.constant(["ab", "c"]))) == [2, 1]


def test_strings_through_dataset_transforms():
    ds = tf.data.Dataset.from_tensor_slices(["a b", "cc", "d e f"])
    assert [t.numpy() for t in ds.map(lambda s: S.upper(s))] == [b"A B", b"CC", b"D E F"]
    assert [t.numpy() for t in ds.filter(lambda s: S.length(s) > 2)] == [b"a b", b"d e f"]
    assert [t.numpy().tolist() for t in ds.batch(2)] == [[b"a b", b"cc"], [b"d e f"]]
    padded = [t.numpy().tolist() for t in ds.map(lambda s: tf.reshape(s, (1,))).padded_batch(2)]
    assert padded == [[[b"a b"], [b"cc"]], [[b"d e f"]]]
    woven = ds.interleave(lambda s: tf.data.Dataset.from_tensors(s).repeat(2), cycle_length=2)
    assert [t.numpy() for t in woven] == [b"a b", b"cc", b"a b", b"cc", b"d e f", b"d e f"]


def test_a_number_where_a_string_is_needed():
    with pytest.raises(tf.errors.InvalidArgumentError, match="string tensor"):
        S.upper(tf.constant([1]))

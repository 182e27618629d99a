"""compat.as_bytes/as_text/as_str/as_str_any/path_to_str, checked against TF 2.21's answers."""

import pathlib

import pytest

import companion as tf


def test_as_bytes_and_as_text_convert_between_text_and_utf8():
    assert tf.compat.as_bytes("héllo") == b"h\xc3\xa9llo"
    assert tf.compat.as_bytes(bytearray(b"ab")) == b"ab"
    assert type(tf.compat.as_bytes(bytearray(b"a"))) is bytes
    assert tf.compat.as_bytes("é", encoding="latin-1") == b"\xe9"
    assert tf.compat.as_text(b"h\xc3\xa9llo") == "héllo" and tf.compat.as_str(b"x") == "x"
    assert tf.compat.as_text("same") == "same"


def test_as_str_any_and_path_to_str():
    assert tf.compat.as_str_any(b"abc") == "abc" and tf.compat.as_str_any(3) == "3"
    assert tf.compat.as_str_any([1, 2]) == "[1, 2]"
    assert tf.compat.path_to_str(pathlib.Path("logs") / "run1") == "logs/run1"
    assert tf.compat.path_to_str(5) == 5


@pytest.mark.parametrize("function", [tf.compat.as_bytes, tf.compat.as_text])
def test_other_values_raise_type_error_naming_the_value(function):
    with pytest.raises(TypeError, match="got 3"):
        function(3)

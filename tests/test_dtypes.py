"""DType objects and TensorFlow's dtype inference rules."""

import ml_dtypes
import numpy as np
import pytest

import companion as tf


@pytest.mark.parametrize("value, expected", [
    (1, tf.int32), (2**40, tf.int64), (1.5, tf.float32), (True, tf.bool), (1 + 2j, tf.complex128),
    ([1, 2, 3], tf.int32), ([[1.0, 2], [3, 4]], tf.float32), ("hello", tf.string), ([], tf.float32),
    (np.arange(3), tf.int64), (np.zeros(2), tf.float64), (np.float32(1.0), tf.float32),
    (np.array([1, 2], np.uint32), tf.uint32),
])
def test_inference_follows_tensorflow(value, expected):
    assert tf.constant(value).dtype == expected


def test_explicit_dtype_wins():
    assert tf.constant(np.arange(3), dtype=tf.float32).dtype == tf.float32
    assert tf.constant([1, 2], dtype="uint32").dtype == tf.uint32
    assert tf.constant(1, dtype=tf.bfloat16).dtype == tf.bfloat16


def test_dtype_compares_with_numpy_and_names():
    assert tf.float32 == np.float32
    assert tf.float32 == np.dtype("float32")
    assert tf.float32 == "float32"
    assert tf.bfloat16 == ml_dtypes.bfloat16
    assert tf.int32 != tf.int64
    assert tf.as_dtype("double") is tf.float64
    assert tf.int64.as_numpy_dtype is np.int64


def test_dtype_properties():
    assert tf.float16.is_floating and not tf.float16.is_integer
    assert tf.uint8.is_unsigned and tf.uint8.max == 255
    assert tf.int8.min == -128
    assert tf.complex64.real_dtype == tf.float32
    assert tf.float32.size == 4
    assert repr(tf.int32) == "companion.int32"


def test_str_of_a_dtype_is_tensorflows():
    # TF 2.21: print(tf.float32) shows <dtype: 'float32'>; repr gives tf.float32 (companion.float32 here)
    assert str(tf.float32) == "<dtype: 'float32'>"
    assert f"{tf.constant([1, 2]).dtype}" == "<dtype: 'int32'>"
    assert str(tf.string) == "<dtype: 'string'>"
    assert str([tf.int64]) == "[companion.int64]"


def test_unknown_dtype_error_lists_choices():
    with pytest.raises(TypeError, match="Cannot convert 'float31'.*float32"):
        tf.as_dtype("float31")


def test_python_float_into_int_tensor_is_refused():
    with pytest.raises(TypeError, match="Cannot convert 1.5 to a tensor of dtype int32"):
        tf.constant([1, 2]) + 1.5


def test_python_int_adopts_tensor_dtype():
    assert (tf.constant([1.0, 2.0]) + 1).dtype == tf.float32
    assert (tf.constant(np.arange(3)) * 2).dtype == tf.int64
    assert (2 * tf.constant([1, 2], dtype=tf.uint8)).dtype == tf.uint8


def test_no_silent_promotion_between_tensors():
    message = "between tensors of dtypes int32 and float32.*cast"
    with pytest.raises(tf.InvalidArgumentError, match=message) as info:
        tf.add(tf.constant([1, 2]), tf.constant([1.0, 2.0]))
    assert isinstance(info.value, ValueError)


def test_integer_true_division_gives_float64():
    result = tf.constant([1, 2]) / tf.constant([2, 4])
    assert result.dtype == tf.float64
    np.testing.assert_allclose(result.numpy(), [0.5, 0.5])
    assert (tf.constant([3], dtype=tf.int16) / 2).dtype == tf.float32


def test_integer_out_of_range_wraps_as_tensorflow_does():
    # TF 2.21: a Python int that fits in int64 keeps its low bits: [1, 300] as uint8 is [1, 44],
    # -1 as uint8 is 255, 2**31 as int32 is -2**31; beyond int64 it is a ValueError.
    np.testing.assert_array_equal(tf.constant([1, 300], dtype=tf.uint8).numpy(), [1, 44])
    assert tf.constant(-1, dtype=tf.uint8).numpy() == 255
    assert tf.constant(2**31, dtype=tf.int32).numpy() == -2**31
    assert tf.constant(2**64 - 1, dtype=tf.uint64).numpy() == 2**64 - 1
    assert (tf.constant(3, dtype=tf.uint8) + 256).numpy() == 3
    with pytest.raises(ValueError, match="out of range for int64"):
        tf.constant(2**63, dtype=tf.int64)


def test_large_python_ints():
    assert tf.constant(2**63, dtype=tf.uint64).numpy() == 2**63
    assert tf.constant(2**63).dtype == tf.uint64
    assert tf.constant([1, 2**40]).dtype == tf.int64
    with pytest.raises(ValueError, match="does not fit in any integer dtype"):
        tf.constant(2**70)


@pytest.mark.parametrize("expression, shown", [
    (lambda x: x + 1.5, "InvalidArgumentError"),  # TF 2.21: AddV2's kernel refuses the float
    (lambda x: 1.5 + x, "TypeError"),  # the rest: "Cannot convert 1.5 to EagerTensor of dtype int32"
    (lambda x: x * 1.5, "TypeError"),
    (lambda x: x < 1.5, "TypeError"),
    (lambda x: x // 1.5, "TypeError"),
    (lambda x: tf.maximum(x, 1.5), "TypeError"),
    (lambda x: x + tf.constant(1.5), "InvalidArgumentError"),  # two tensors: the kernel's error
])
def test_a_python_value_the_dtype_cannot_hold_raises_tfs_class(expression, shown):
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)) as info:
        expression(tf.constant([1, 2]))
    assert type(info.value).__name__ == shown
    assert isinstance(info.value, TypeError) and isinstance(info.value, tf.errors.InvalidArgumentError)

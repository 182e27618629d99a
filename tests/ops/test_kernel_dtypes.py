"""Ops on dtypes TensorFlow has no kernel for raise TF's error class (observed with TF 2.21)."""

import pytest

import companion as tf

# (op, dtype, TF's error class name), as TF 2.21 raised them eagerly
_REJECTED = [
    (lambda a: tf.add(a, a), tf.bool, "InvalidArgumentError"),
    (lambda a: tf.multiply(a, a), tf.bool, "InvalidArgumentError"),
    (lambda a: tf.subtract(a, a), tf.bool, "InvalidArgumentError"),
    (lambda a: tf.pow(a, a), tf.uint8, "InvalidArgumentError"),
    (lambda a: a ** a, tf.uint32, "InvalidArgumentError"),
    (lambda a: tf.pow(a, a), tf.bool, "InvalidArgumentError"),
    (lambda a: tf.matmul(tf.reshape(a, [1, 1]), tf.reshape(a, [1, 1])), tf.int8, "InvalidArgumentError"),
    (lambda a: tf.matmul(tf.reshape(a, [1, 1]), tf.reshape(a, [1, 1])), tf.uint8, "NotFoundError"),
    (lambda a: tf.abs(a), tf.uint16, "InvalidArgumentError"),
    (lambda a: -a, tf.uint8, "InvalidArgumentError"),
    (lambda a: tf.sign(a), tf.uint64, "InvalidArgumentError"),
    (lambda a: tf.math.floordiv(a, a), tf.complex64, "NotFoundError"),
    (lambda a: a % a, tf.complex64, "InvalidArgumentError"),
    (lambda a: a // a, tf.bool, "InvalidArgumentError"),
    (lambda a: tf.maximum(a, a), tf.complex64, "InvalidArgumentError"),
    (lambda a: tf.less(a, a), tf.bool, "InvalidArgumentError"),
    (lambda a: tf.round(a), tf.complex64, "NotFoundError"),
    (lambda a: tf.floor(a), tf.complex64, "InvalidArgumentError"),
    (lambda a: tf.math.reciprocal(a), tf.int32, "NotFoundError"),
    (lambda a: tf.math.squared_difference(a, a), tf.int8, "InvalidArgumentError"),
    (lambda a: tf.logical_and(a, a), tf.float32, "InvalidArgumentError"),
    (lambda a: tf.bitwise.bitwise_and(a, a), tf.float32, "InvalidArgumentError"),
    (lambda a: tf.bitwise.invert(a), tf.bool, "InvalidArgumentError"),
    (lambda a: tf.nn.relu(a), tf.bool, "InvalidArgumentError"),
    (lambda a: tf.nn.softmax(tf.reshape(a, [1, 1])), tf.int32, "InvalidArgumentError"),
    (lambda a: tf.math.xdivy(a, a), tf.int32, "InvalidArgumentError"),
    (lambda a: tf.divide(a, a), tf.bool, "TypeError"),
    (lambda a: a / a, tf.bool, "TypeError"),
]


@pytest.mark.parametrize("fn, dtype, error", _REJECTED)
def test_dtype_without_kernel_raises_tf_class(fn, dtype, error):
    a = tf.cast(tf.constant(3), dtype)
    with pytest.raises(Exception) as info:
        fn(a)
    assert type(info.value).__name__ == error


def test_check_also_runs_while_a_function_traces():
    @tf.function
    def f(x):
        return tf.pow(x, x)

    with pytest.raises(tf.errors.InvalidArgumentError, match="Pow"):
        f(tf.constant(2, tf.uint8))


@pytest.mark.parametrize("dtype", [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.float16, tf.float32])
def test_supported_dtypes_still_compute(dtype):
    a = tf.cast(tf.constant(3), dtype)
    assert int(tf.add(a, a)) == 6
    assert int(tf.math.floordiv(a, tf.cast(tf.constant(2), dtype))) == 1


def test_divide_no_nan_on_integers_gives_floats_as_tf():
    out = tf.math.divide_no_nan(tf.constant([1, 2], tf.int8), tf.constant([0, 4], tf.int8))
    assert out.dtype == tf.float32 and out.numpy().tolist() == [0.0, 0.5]
    out = tf.math.divide_no_nan(tf.constant([1, 2], tf.int64), tf.constant([0, 4], tf.int64))
    assert out.dtype == tf.float64
    with pytest.raises(TypeError):
        tf.math.divide_no_nan(tf.constant(True), tf.constant(True))


@pytest.mark.parametrize("fn, dtype, error", [
    (lambda x: tf.add(x, x), tf.bool, "TypeError"),
    (lambda x: tf.abs(x), tf.uint8, "TypeError"),
    (lambda x: tf.nn.softmax(x), tf.int32, "TypeError"),
    (lambda x: tf.matmul(tf.reshape(x, [1, 1]), tf.reshape(x, [1, 1])), tf.uint8, "InvalidArgumentError"),
    (lambda x: tf.math.reciprocal(x), tf.int32, "InvalidArgumentError"),
])
def test_classes_while_a_function_traces_are_tfs(fn, dtype, error):
    with pytest.raises(Exception) as info:
        tf.function(fn)(tf.cast(tf.constant(1), dtype))
    assert type(info.value).__name__ == error


def test_star_on_bools_is_logical_and_as_tf():
    a, b = tf.constant([True, False]), tf.constant([True, True])
    assert (a * b).numpy().tolist() == [True, False]
    assert tf.function(lambda x: x * x)(a).numpy().tolist() == [True, False]
    with pytest.raises(tf.errors.InvalidArgumentError):
        a + b

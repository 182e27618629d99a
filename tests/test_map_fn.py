"""map_fn, vectorized_map, scan, foldl and foldr: values and errors as TF 2.21 gives them, eager and staged,
with gradients checked against the closed-form derivative."""

import numpy as np
import pytest

import companion as tf

X = np.array([1.0, 2.0, 3.0], np.float32)


def test_map_fn_values_signatures_and_nests():
    x = tf.constant(X)
    np.testing.assert_array_equal(tf.map_fn(lambda t: t * t, x).numpy(), X * X)
    cast = tf.map_fn(lambda t: tf.cast(t, tf.int32), x, fn_output_signature=tf.int32)
    assert cast.dtype == tf.int32 and cast.numpy().tolist() == [1, 2, 3]
    assert tf.map_fn(lambda t: tf.cast(t, tf.int32), x, dtype=tf.int32).dtype == tf.int32
    a, b = tf.map_fn(lambda t: (t, 2 * t), x, fn_output_signature=(tf.float32, tf.float32))
    np.testing.assert_array_equal(b.numpy(), 2 * X)
    summed = tf.map_fn(lambda t: t["a"] * t["b"], {"a": x, "b": x}, fn_output_signature=tf.float32)
    np.testing.assert_array_equal(summed.numpy(), X * X)
    pairs = tf.map_fn(lambda t: tf.stack([t, t]), x)  # TF 2.21: shape (3, 2)
    assert pairs.shape == (3, 2)
    rows = tf.map_fn(lambda r: tf.reduce_sum(r), tf.constant([[1, 2], [3, 4]]))
    assert rows.numpy().tolist() == [3, 7]
    assert tf.map_fn(lambda t: t, tf.zeros((0, 2))).shape == (0,)  # TF 2.21: shape (0,)


def test_map_fn_errors_have_tensorflows_classes():
    x = tf.constant(X)
    with pytest.raises(tf.errors.InvalidArgumentError, match="float32 but Op is trying to write dtype int32"):
        tf.map_fn(lambda t: tf.cast(t, tf.int32), x)
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.map_fn(lambda t: (t, 2 * t), x)
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.map_fn(lambda t: t, (x, tf.constant([1.0, 2.0])))
    with pytest.raises(ValueError, match="1\\+ dimensional"):
        tf.map_fn(lambda t: t, tf.constant(1.0))


def test_scan_foldl_foldr_match_tensorflow():
    ints = tf.constant([1, 2, 3, 4])
    assert tf.scan(lambda a, x: a + x, ints).numpy().tolist() == [1, 3, 6, 10]
    assert tf.scan(lambda a, x: a + x, ints, initializer=10).numpy().tolist() == [11, 13, 16, 20]
    assert tf.scan(lambda a, x: a + x, ints, reverse=True).numpy().tolist() == [10, 9, 7, 4]
    fib = tf.scan(lambda a, _: (a[1], a[0] + a[1]), tf.range(6), initializer=(0, 1))
    assert fib[0].numpy().tolist() == [1, 1, 2, 3, 5, 8]
    assert int(tf.foldl(lambda a, x: a + x, ints)) == 10
    assert int(tf.foldl(lambda a, x: a - x, ints, initializer=0)) == -10
    assert int(tf.foldr(lambda a, x: a * 10 + x, ints)) == 4321
    assert float(tf.foldl(lambda a, x: a + x, tf.zeros((0,)), initializer=5.0)) == 5.0
    with pytest.raises(tf.errors.OutOfRangeError):
        tf.foldl(lambda a, x: a + x, tf.zeros((0,)))


def test_vectorized_map():
    np.testing.assert_array_equal(tf.vectorized_map(lambda t: t * t, tf.constant(X)).numpy(), X * X)
    sums = tf.vectorized_map(lambda r: tf.reduce_sum(r * r), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(sums.numpy(), [5.0, 25.0])


def test_inside_function_same_values():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        mapped = tf.map_fn(lambda e: e * e * v, x)
        return mapped, tf.scan(lambda a, e: a * e, x), tf.foldr(lambda a, e: a - e, x)

    mapped, scanned, folded = f(tf.constant(X))
    np.testing.assert_array_equal(mapped.numpy(), X * X * 2)
    np.testing.assert_array_equal(scanned.numpy(), np.cumprod(X))
    assert float(folded) == 0.0  # TF 2.21: 3 - 2 - 1 = 0


def test_gradients_eager_and_around_a_function():
    x, v = tf.constant(X), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.map_fn(lambda e: e * e * v, x))
    gx, gv = tape.gradient(y, [x, v])
    np.testing.assert_allclose(gx.numpy(), 2 * X * 2.0)  # TF 2.21: [4 8 12], 14
    assert float(gv) == pytest.approx(float(np.sum(X * X)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.foldl(lambda a, e: a * e + 1.0, x, initializer=tf.constant(1.0))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [6.0, 6.0, 5.0])  # TF 2.21
    scan_sum = tf.function(lambda x: tf.reduce_sum(tf.scan(lambda a, e: a * e, x)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scan_sum(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [9.0, 4.0, 2.0])  # TF 2.21

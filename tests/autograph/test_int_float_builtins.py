"""int()/float() of a tensor inside function are casts, as TF's AutoGraph converts them."""

import companion as tf


def test_int_and_float_of_tensors_cast_inside_function():
    @tf.function
    def f(x):
        return int(x), float(x), int(x * 2.5), int(tf.constant(7, tf.int64))

    i, fl, scaled, wide = f(tf.constant(-2.2))
    # TF 2.21: (-2 int32, -2.2 float32, -5 int32, 7 int32): truncation towards zero
    assert (int(i), i.dtype) == (-2, tf.int32) and fl.dtype == tf.float32
    assert abs(float(fl) + 2.2) < 1e-6
    assert int(scaled) == -5 and (int(wide), wide.dtype) == (7, tf.int32)


def test_any_shape_and_python_values_stay_python():
    @tf.function
    def g(x):
        return int(x), float(x), int(3.9), float("2.5")

    ints, floats, three, half = g(tf.constant([1, 2]))
    assert ints.numpy().tolist() == [1, 2] and floats.dtype == tf.float32
    assert int(three) == 3 and float(half) == 2.5  # TF 2.21 returns them as tensors too


def test_eager_int_still_gives_a_python_int():
    assert int(tf.constant(3.7)) == 3 and isinstance(int(tf.constant(3)), int)

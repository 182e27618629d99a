"""Element-wise math added for TF fidelity (issue #19, group 5): truncated division, rint,
log_sigmoid, digamma, polyval, scalar_mul, multiply_no_nan, cumulative_logsumexp and
broadcast_static_shape, against NumPy/SciPy formulas or TF 2.21's documented values, with gradients."""

import numpy as np
import pytest

import companion as tf
from tests.checks import check_gradient, check_op


def test_truncatediv_and_truncatemod_round_towards_zero():
    a, b = tf.constant([7, -7, 8, -8]), tf.constant([2, 2, -3, -3])
    # TF 2.21 gives [3 -3 -2 2] and [1 -1 2 -2] (C's / and %), unlike // and %
    assert tf.truncatediv(a, b).numpy().tolist() == [3, -3, -2, 2]
    assert tf.truncatemod(a, b).numpy().tolist() == [1, -1, 2, -2]
    x = np.array([7.5, -7.5])
    np.testing.assert_allclose(tf.truncatediv(tf.constant(x), 2.0).numpy(), np.trunc(x / 2.0))
    np.testing.assert_allclose(tf.truncatemod(tf.constant(x), 2.0).numpy(), np.fmod(x, 2.0))
    assert not hasattr(tf.math, "truncatediv")  # TF exports them at the top level only


def test_rint_rounds_halves_to_even():
    x = np.array([-2.5, -1.5, 0.5, 1.5, 2.7], np.float32)
    out = tf.math.rint(tf.constant(x))
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), np.rint(x))


def test_log_sigmoid_is_stable_and_differentiable(rng):
    x = rng.normal(size=(5,)) * 3
    check_op(tf.math.log_sigmoid, lambda v: -np.logaddexp(0.0, -v), x)
    big = tf.math.log_sigmoid(tf.constant([-100.0, 100.0])).numpy()
    assert big[0] == pytest.approx(-100.0) and big[1] == pytest.approx(0.0, abs=1e-30)


def test_digamma_matches_known_values():
    # digamma(1) = -Euler's gamma, digamma(2.5) = 2 - gamma - 2 log 2 + 2/3 (TF 2.21: -0.5772159, 0.7031568)
    euler = 0.5772156649015329
    want = [-euler, 2 - euler - 2 * np.log(2) + 2 / 3]
    np.testing.assert_allclose(tf.math.digamma(tf.constant([1.0, 2.5], tf.float64)).numpy(), want, rtol=1e-10)


def test_digamma_is_the_derivative_of_lgamma(rng):
    x = tf.Variable(rng.uniform(0.5, 4.0, size=(4,)))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.lgamma(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), tf.math.digamma(x).numpy(), rtol=1e-6)


def test_polyval_horner(rng):
    x = rng.normal(size=(3,))
    check_op(lambda v: tf.math.polyval([1.0, -2.0, 3.0], v), lambda v: np.polyval([1.0, -2.0, 3.0], v), x)
    assert int(tf.math.polyval([tf.constant(1), 2], 3)) == 5  # TF 2.21: 5, int32
    assert tf.math.polyval([tf.constant(1), 2], 3).dtype == tf.int32
    assert float(tf.math.polyval([], tf.constant(2.0))) == 0.0  # TF 2.21: 0.0
    with pytest.raises(ValueError, match="list"):
        tf.math.polyval(tf.constant([1.0, 2.0]), 1.0)


def test_scalar_mul():
    out = tf.math.scalar_mul(3, tf.constant([1.0, 2.0]))
    assert out.dtype == tf.float32 and out.numpy().tolist() == [3.0, 6.0]
    assert tf.scalar_mul(2.0, tf.constant([1.0])).numpy().tolist() == [2.0]
    with pytest.raises(ValueError, match="0-d"):
        tf.scalar_mul(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))


def test_multiply_no_nan_is_zero_where_y_is_zero(rng):
    x = tf.constant([np.inf, np.nan, 1.0])
    # TF 2.21 gives [0. 0. 2.]
    assert tf.math.multiply_no_nan(x, tf.constant([0.0, 0.0, 2.0])).numpy().tolist() == [0.0, 0.0, 2.0]
    a, b = rng.normal(size=(4,)), np.array([0.0, 1.5, -2.0, 0.0])
    check_op(tf.math.multiply_no_nan, lambda u, v: u * v, a, b)


def _np_cumlogsumexp(x, exclusive=False, reverse=False):
    x = x[::-1] if reverse else x
    out = np.logaddexp.accumulate(x)
    if exclusive:
        out = np.concatenate([[-np.inf], out[:-1]])
    return out[::-1] if reverse else out


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative_logsumexp(rng, exclusive, reverse):
    x = rng.normal(size=(5,))
    got = tf.math.cumulative_logsumexp(tf.constant(x), exclusive=exclusive, reverse=reverse)
    np.testing.assert_allclose(got.numpy(), _np_cumlogsumexp(x, exclusive, reverse), rtol=1e-10)
    if not exclusive:
        check_gradient(lambda v: tf.math.cumulative_logsumexp(v, reverse=reverse), x)


def test_cumulative_logsumexp_tf_values():
    # TF 2.21: cumulative_logsumexp([0, 0, 0]) = [0, 0.6931472, 1.0986123]
    got = tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 0.0]))
    np.testing.assert_allclose(got.numpy(), np.log([1.0, 2.0, 3.0]), rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.math.cumulative_logsumexp(tf.constant([1, 2]))
    assert not hasattr(tf, "cumulative_logsumexp")


def test_broadcast_static_shape():
    # TF 2.21: (2, 3); TensorShape([None, 3]); ValueError for (2,) vs (3,)
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([1, 3])).as_list() == [2, 3]
    assert tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([3])).as_list() == [None, 3]
    assert str(tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([1, 3]))) == "(2, 3)"
    with pytest.raises(ValueError, match="broadcast"):
        tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))


def test_broadcast_dynamic_shape():
    out = tf.broadcast_dynamic_shape(tf.constant([2, 1]), tf.constant([1, 3]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21 raises InvalidArgumentError
        tf.broadcast_dynamic_shape(tf.constant([2]), tf.constant([3]))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
def test_integer_division_by_zero_raises_tf_classes(dtype):
    a, b = tf.constant([7, 8], dtype), tf.constant([2, 0], dtype)
    # TF 2.21: InvalidArgumentError "Integer division by zero" for FloorDiv/FloorMod and an
    # InternalError for TruncateDiv (its kernel's "Unexpected error in binary operator")
    for fn in (lambda: a // b, lambda: a % b, lambda: tf.math.floordiv(a, b), lambda: tf.math.floormod(a, b),
               lambda: tf.math.mod(a, b)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            fn()
    with pytest.raises(tf.errors.InternalError, match="Unexpected error in binary operator"):
        tf.truncatediv(a, b)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        7 // tf.constant(0, dtype)
    assert (a // tf.constant([2, 3], dtype)).numpy().tolist() == [3, 2]


def test_float_division_by_zero_still_gives_inf_and_nan():
    assert float(tf.constant(7.0) // 0.0) == np.inf
    assert np.isnan(float(tf.constant(7.0) % 0.0))
    np.testing.assert_array_equal((tf.constant([7, 8]) / tf.constant([2, 0])).numpy(), [3.5, np.inf])


def test_integer_to_a_negative_integer_power_raises():
    for fn in (lambda: tf.constant(2) ** -1, lambda: tf.constant([2, 3]) ** tf.constant([1, -1]),
               lambda: tf.pow(tf.constant(1, tf.int64), -2), lambda: 2 ** tf.constant(-1)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Integers to negative integer powers are not allowed"):
            fn()
    assert int(tf.constant(2) ** 0) == 1
    assert float(tf.constant(2.0) ** -1) == 0.5


def test_integer_division_by_zero_inside_a_function_raises_when_it_runs():
    @tf.function
    def divide(a, b):
        return a // b, a % b

    q, r = divide(tf.constant([7, 8]), tf.constant([2, 3]))
    assert q.numpy().tolist() == [3, 2] and r.numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        divide(tf.constant([7, 8]), tf.constant([2, 0]))

    @tf.function
    def power(a, b):
        return a ** b

    with pytest.raises(tf.errors.InvalidArgumentError, match="negative integer powers"):
        power(tf.constant([7, 8]), tf.constant([2, -1]))


def test_float_to_integer_casts_out_of_range_as_tf_on_cpu():
    """TF 2.21 (CPU): truncation; out of range or NaN gives the x86 conversion's most negative
    int32/int64, and narrower integers keep the low bits, where XLA would saturate."""
    import companion as tf_

    x = tf_.constant([-1.0, 300.0, 70000.0, -129.5, 3e9, 1e20, float("nan"), float("inf")])
    expected = {
        "int8": [-1, 44, 112, 127, 0, 0, 0, 0],
        "uint8": [255, 44, 112, 127, 0, 0, 0, 0],
        "int16": [-1, 300, 4464, -129, 0, 0, 0, 0],
        "uint16": [65535, 300, 4464, 65407, 0, 0, 0, 0],
        "int32": [-1, 300, 70000, -129, -2147483648, -2147483648, -2147483648, -2147483648],
        "uint32": [4294967295, 300, 70000, 4294967167, 3000000000, 2147483648, 2147483648, 2147483648],
        "int64": [-1, 300, 70000, -129, 3000000000] + [-9223372036854775808] * 3,
        "uint64": [18446744073709551615, 300, 70000, 18446744073709551487, 3000000000]
        + [9223372036854775808] * 3,
    }
    for name, values in expected.items():
        assert tf_.cast(x, name).numpy().tolist() == values, name
    assert tf_.cast(tf_.constant([-1.0, 300.0], tf_.float16), tf_.uint8).numpy().tolist() == [255, 44]
    assert tf_.cast(tf_.constant([2.7, -2.7]), tf_.int32).numpy().tolist() == [2, -2]


def test_a_python_list_index_is_a_tuple_of_indices_as_tf():
    import companion as tf_

    m = tf_.reshape(tf_.range(12), [3, 4])
    assert int(m[[0, 2]]) == 2
    assert m[[1]].numpy().tolist() == [4, 5, 6, 7]


def test_softplus_and_lgamma_round_as_tf():
    # TF 2.21's float32 values (its kernels: log1p(exp(x)) between the thresholds; libm's lgammaf)
    x = tf.constant(np.float32([1.0, -1.0, 0.5, 3.0, 20.0, -20.0, 100.0]))
    np.testing.assert_array_equal(tf.math.softplus(x).numpy(), np.float32(
        [1.3132616, 0.3132617, 0.974077, 3.0485873, 20.0, 2.0611537e-09, 100.0]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.softplus(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 1 / (1 + np.exp(-x.numpy())), rtol=1e-6)
    assert tf.math.lgamma(3.0).numpy() == np.float32(0.6931472)
    np.testing.assert_allclose(tf.math.lgamma(np.float32([0.5, 1.5, 10.0])).numpy(),
                               np.float32([0.5723649, -0.12078223, 12.801827]), rtol=2e-7)

"""tf.math's special functions against known values and finite differences; conversions and list
ops against NumPy."""

import math

import numpy as np
import pytest

import companion as tf

# closed forms and published values (Abramowitz & Stegun; scipy.special gives the same)
KNOWN = [
    (lambda: tf.math.erfc(0.5), math.erfc(0.5)),
    (lambda: tf.math.erfinv(0.5), 0.4769362762044699),
    (lambda: tf.math.erfcinv(0.5), 0.4769362762044699),
    (lambda: tf.math.ndtri(0.975), 1.959963984540054),
    (lambda: tf.math.igamma(2.0, 1.0), 1 - 2 / math.e),
    (lambda: tf.math.igammac(2.0, 1.0), 2 / math.e),
    (lambda: tf.math.betainc(2.0, 3.0, 0.5), 0.6875),
    (lambda: tf.math.lbeta([1.0, 2.0]), math.log(0.5)),
    (lambda: tf.math.polygamma(1.0, 2.0), math.pi ** 2 / 6 - 1),
    (lambda: tf.math.zeta(2.0, 1.0), math.pi ** 2 / 6),
    (lambda: tf.math.bessel_i0(1.0), 1.2660658777520082),
    (lambda: tf.math.bessel_i0e(1.0), 1.2660658777520082 * math.exp(-1)),
    (lambda: tf.math.bessel_i1(1.0), 0.5651591039924851),
    (lambda: tf.math.bessel_i1e(1.0), 0.5651591039924851 * math.exp(-1)),
    (lambda: tf.math.special.expint(1.0), 1.8951178163559368),
    (lambda: tf.math.special.spence(0.5), math.pi ** 2 / 12 - math.log(2) ** 2 / 2),
    (lambda: tf.acosh(2.0), math.acosh(2.0)),
    (lambda: tf.asinh(-2.0), math.asinh(-2.0)),
    (lambda: tf.atanh(0.5), math.atanh(0.5)),
    (lambda: tf.math.xlog1py(2.0, 1.0), 2 * math.log(2)),
    (lambda: tf.math.xlog1py(0.0, -1.0), 0.0),
    (lambda: tf.math.reciprocal_no_nan(0.0), 0.0),
    (lambda: tf.math.angle(tf.constant(1 + 1j)), math.pi / 4),
    (lambda: tf.math.angle(-1.0), math.pi),
]


@pytest.mark.parametrize("case", range(len(KNOWN)))
def test_special_function_values(case):
    compute, expected = KNOWN[case]
    assert float(compute()) == pytest.approx(expected, rel=2e-6, abs=1e-7)


def test_polygamma_of_a_non_whole_order_is_nan_and_float_inputs_are_required():
    assert np.isnan(tf.math.polygamma(1.5, 1.0).numpy())
    with pytest.raises(TypeError, match="floating-point"):
        tf.math.erfc(tf.constant([1, 2]))


@pytest.mark.parametrize("fn", [tf.math.erfc, tf.math.erfinv, tf.math.bessel_i1e, tf.math.ndtri,
                                lambda y: tf.math.igamma(2.0, y), lambda y: tf.math.xlog1py(3.0, y)])
def test_gradients_match_finite_differences(fn):
    y = tf.constant([0.3, 0.6], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(y)
        out = tf.reduce_sum(fn(y))
    h = 1e-6
    numeric = [(float(tf.reduce_sum(fn(y + h * e))) - float(tf.reduce_sum(fn(y - h * e)))) / (2 * h)
               for e in np.eye(2)]
    np.testing.assert_allclose(tape.gradient(out, y).numpy(), numeric, rtol=1e-5)


def test_xlog1py_gradient_is_zero_where_x_is_zero_as_tf():
    x, y = tf.constant([0.0, 2.0]), tf.constant([-1.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        out = tf.reduce_sum(tf.math.xlog1py(x, y))
    gx, gy = tape.gradient(out, [x, y])
    np.testing.assert_allclose(gx.numpy(), [0.0, math.log(2)], rtol=1e-6)
    np.testing.assert_allclose(gy.numpy(), [0.0, 1.0], rtol=1e-6)


def test_order_checks_zero_fraction_and_permutations():
    assert bool(tf.math.is_non_decreasing([1, 1, 2])) and not bool(tf.math.is_non_decreasing([3, 1]))
    assert not bool(tf.math.is_strictly_increasing([1, 1, 2])) and bool(tf.math.is_strictly_increasing([]))
    assert float(tf.math.zero_fraction([[0, 1], [0, 0]])) == 0.75
    perm = np.random.default_rng(0).permutation(7)
    np.testing.assert_array_equal(tf.math.invert_permutation(perm).numpy(), np.argsort(perm))
    with pytest.raises(tf.errors.InvalidArgumentError, match="exactly once"):
        tf.math.invert_permutation([0, 0, 1])


def test_conversions_against_numpy():
    expected = np.array([1 + 3j, 2 + 4j], np.complex64)
    np.testing.assert_array_equal(tf.complex([1.0, 2.0], [3.0, 4.0]).numpy(), expected)
    assert tf.complex(tf.constant(1.0, tf.float64), tf.constant(2.0, tf.float64)).dtype == tf.complex128
    with pytest.raises(TypeError, match="both be float32 or both float64"):
        tf.complex(tf.constant([1]), tf.constant([3]))
    floats = np.array([1.0, -2.5], np.float32)
    np.testing.assert_array_equal(tf.bitcast(floats, tf.int32).numpy(), floats.view(np.int32))
    np.testing.assert_array_equal(tf.bitcast(floats, tf.uint8).numpy(), floats.view(np.uint8).reshape(2, 4))
    np.testing.assert_array_equal(tf.bitcast(floats.view(np.int16).reshape(2, 2), tf.float32).numpy(), floats)
    with pytest.raises(tf.errors.InvalidArgumentError, match="last dimension must be 2"):
        tf.bitcast(tf.constant([1, 0, 3], tf.int16), tf.int32)
    np.testing.assert_array_equal(tf.saturate_cast([-5.0, 300.0, 3.7], tf.uint8).numpy(), [0, 255, 3])
    np.testing.assert_array_equal(tf.saturate_cast([70000, -70000], tf.int16).numpy(), [32767, -32768])
    big = tf.saturate_cast(tf.constant([1e10, -1e10]), tf.int32).numpy()  # no wrap-around
    assert big[0] == np.nextafter(np.float32(2 ** 31), np.float32(0)) and big[1] == -2 ** 31


def test_histograms_against_numpy():
    values = np.random.default_rng(1).normal(size=200).astype(np.float32)
    counts = tf.histogram_fixed_width(values, [-1.0, 1.0], nbins=8).numpy()
    inside = np.clip(values, -1.0, 1.0 - 1e-6)  # values outside count in the edge bins
    np.testing.assert_array_equal(counts, np.histogram(inside, bins=8, range=(-1.0, 1.0))[0])
    bins = tf.histogram_fixed_width_bins(values.reshape(20, 10), [-1.0, 1.0], nbins=8)
    assert bins.shape == (20, 10) and bins.dtype == tf.int32
    np.testing.assert_array_equal(np.bincount(bins.numpy().ravel(), minlength=8), counts)
    assert tf.histogram_fixed_width([1, 2, 3, 9], [0, 10], nbins=5, dtype=tf.int64).dtype == tf.int64


def test_list_ops_unravel_and_partitions():
    a, b = tf.identity_n([tf.constant(1), tf.constant([2.0, 3.0])])
    assert int(a) == 1 and b.numpy().tolist() == [2.0, 3.0]
    assert [s.numpy().tolist() for s in tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])])] == [[2, 3], [4]]
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.parallel_stack([tf.constant(1)])
    staged = tf.function(lambda: tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])]),
                         autograph=False)
    assert staged().numpy().tolist() == [[1, 2], [3, 4]]
    flat = np.array([22, 41, 37])
    np.testing.assert_array_equal(tf.unravel_index(flat, [7, 6]).numpy(), np.unravel_index(flat, (7, 6)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        tf.unravel_index([50], [7, 6])
    data, parts = np.arange(10, 60, 10), np.array([0, 0, 1, 1, 0])
    out = tf.dynamic_partition(data, parts, 3)
    assert [o.numpy().tolist() for o in out] == [[10, 20, 50], [30, 40], []]
    stitched = tf.dynamic_stitch([np.flatnonzero(parts == i) for i in range(3)], out)
    np.testing.assert_array_equal(stitched.numpy(), data)  # stitching the partition back gives the data
    assert tf.dynamic_stitch([[0, 1], [1, 2]], [[1, 2], [3, 4]]).numpy().tolist() == [1, 3, 4]  # later wins
    with pytest.raises(TypeError, match="depends on the values"):
        tf.function(lambda p: tf.dynamic_partition(data, p, 2))(tf.constant(parts % 2))
    assert tf.bitwise.bitwise_and(12, 10).numpy() == 8 and tf.realdiv(1.0, 4.0).numpy() == 0.25

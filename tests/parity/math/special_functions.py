"""tf.math's special functions, conversions and list ops (values compared with the tolerance)."""
import numpy as np
import tensorflow as tf

print(tf.acosh(tf.constant([1.5, 2.0])), tf.math.asinh(tf.constant([1.5, -2.0])), tf.atanh(0.5))
print(tf.math.erfc([0.5, 2.0]), tf.math.erfinv([0.5, -0.9]), tf.math.erfcinv([0.5, 1.9]))
print(tf.math.ndtri([0.1, 0.975]), tf.math.igamma(2.0, 1.0), tf.math.igammac([2.0, 0.5], [1.0, 3.0]))
print(tf.math.betainc(2.0, 3.0, 0.5), tf.math.lbeta([[1.0, 2.0], [0.5, 3.0]]))
print(tf.math.polygamma([0.0, 1.0, 2.0, 1.5], [2.0, 2.0, 3.0, 1.0]), tf.math.zeta([2.0, 3.0], [1.0, 2.0]))
print(tf.math.bessel_i0([1.0]), tf.math.bessel_i0e([1.0]))
print(tf.math.bessel_i1([1.0, -2.0]), tf.math.bessel_i1e([1.0]))
print(tf.math.special.expint([1.0, 2.0]), tf.math.special.spence([0.5, 2.0]))
print(tf.math.xlog1py([0.0, 2.0], [-1.0, 1.0]), tf.math.reciprocal_no_nan([0.0, 4.0]))
print(tf.math.is_non_decreasing([1, 1, 2]), tf.math.is_non_decreasing([3, 1]))
print(tf.math.is_strictly_increasing([1, 1, 2]))
print(tf.math.zero_fraction([[0, 1], [0, 0]]), tf.math.invert_permutation([3, 4, 0, 2, 1]))
print(tf.math.accumulate_n([tf.ones(2), tf.ones(2)]), tf.math.angle([-1.0, 2.0]), tf.math.angle([1 + 1j]))
print(tf.math.nextafter(tf.constant([1.0], tf.float64), tf.constant([0.0], tf.float64)).numpy() < 1.0)
x, y = tf.constant([0.0, 2.0]), tf.constant([0.5, 1.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, y])
    out = tf.math.xlog1py(x, y)
    special = tf.math.erfc(y) + tf.math.igamma(2.0, y) + tf.math.bessel_i1e(y)
print(tape.gradient(out, [x, y]), tape.gradient(special, y))
print(tf.complex(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])), tf.complex(1.0, 2.0).dtype,
      tf.complex(tf.constant(1.0, tf.float64), tf.constant(2.0, tf.float64)).dtype)
print(tf.bitcast(tf.constant(1.0), tf.int32), tf.bitcast(tf.constant([1.0, 2.0]), tf.uint8))
print(tf.bitcast(tf.constant([[1, 0], [2, 0]], tf.int16), tf.int32))
print(tf.dtypes.saturate_cast(tf.constant([-5.0, 300.0, 3.7]), tf.uint8))
print(tf.saturate_cast([70000, -70000], tf.int16))
print(tf.saturate_cast(tf.constant([1e10, -1e10]), tf.int32))
print(tf.histogram_fixed_width(tf.constant([0.0, 0.1, 0.5, 0.9, 1.0, -3.0, 7.0]), [0.0, 1.0], nbins=4))
print(tf.histogram_fixed_width(tf.constant([1, 2, 3, 9]), [0, 10], nbins=5, dtype=tf.int64))
print(tf.histogram_fixed_width_bins(tf.constant([[0.0, 0.1], [0.5, 1.1]]), [0.0, 1.0], nbins=4))
print(tf.identity_n([tf.constant(1), tf.constant([2.0, 3.0])]), tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])]))
print(tf.function(lambda: tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])]), autograph=False)())
print(tf.unravel_index([22, 41, 37], [7, 6]), tf.unravel_index(5, [2, 3]))
print(tf.dynamic_partition(tf.constant([10, 20, 30, 40, 50]), tf.constant([0, 0, 1, 1, 0]), 2))
print(tf.dynamic_partition(tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([2, 0, 2]), 3))
print(tf.dynamic_stitch([tf.constant([0, 1]), tf.constant([1, 2])],
                        [tf.constant([1, 2]), tf.constant([3, 4])]))
print(tf.dynamic_stitch([[6], [4, 1], [[5, 2], [0, 3]]],
                        [[[61.0, 62.0]], [[41.0, 42.0], [11.0, 12.0]], [[[51.0, 52.0], [21.0, 22.0]],
                                                                      [[1.0, 2.0], [31.0, 32.0]]]]))
print(tf.realdiv(tf.constant([1.0, 2.0]), 4.0), tf.bitwise.bitwise_and(12, 10))
print(tf.bitwise.invert(tf.constant([0, 5], tf.uint8)))
print(tf.bitwise.left_shift(tf.constant([1, 2]), tf.constant([3, 1])))
print(tf.bitwise.right_shift(tf.constant([-8, 16]), 2))
for bad in (lambda: tf.parallel_stack([tf.constant(1)]), lambda: tf.unravel_index([50], [7, 6]),
            lambda: tf.dynamic_partition(tf.constant([1, 2]), tf.constant([0, 3]), 2),
            lambda: tf.complex(tf.constant([1]), tf.constant([3]))):
    try:
        bad()
    except Exception as e:  # noqa: BLE001
        print(type(e).__name__)
print(np.round(tf.math.bessel_i0e([1.0, 5.0]).numpy(), 5))

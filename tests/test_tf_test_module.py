"""companion.test: the gradient checker against analytic Jacobians, TestCase's assertions, devices."""

import unittest

import numpy as np
import pytest

import companion as tf


def test_compute_gradient_gives_the_analytic_jacobians_both_ways():
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    b = np.array([[2.0, 3.0], [1.0, 0.0]], np.float32)
    theoretical, numerical = tf.test.compute_gradient(lambda v, w: tf.reduce_sum(v * w, axis=0), [a, b])
    # d sum_i(v_ij * w_ij) / d v_kl = w_kl where l == j: rows are outputs j, columns the flat inputs
    expected_v = np.array([[b[0, 0], 0, b[1, 0], 0], [0, b[0, 1], 0, b[1, 1]]])
    expected_w = np.array([[a[0, 0], 0, a[1, 0], 0], [0, a[0, 1], 0, a[1, 1]]])
    for got in (theoretical, numerical):
        np.testing.assert_allclose(got[0], expected_v, atol=1e-3)
        np.testing.assert_allclose(got[1], expected_w, atol=1e-3)
    assert theoretical[0].dtype == np.float32 and theoretical[0].shape == (2, 4)
    x = np.array([0.5, 2.0])
    theoretical, numerical = tf.test.compute_gradient(lambda t: t ** 3, [x])
    np.testing.assert_allclose(theoretical[0], np.diag(3 * x ** 2), rtol=1e-12)
    # the central difference with TF's step 1/1024 is off by exactly delta**2 on a cube
    np.testing.assert_allclose(numerical[0], np.diag(3 * x ** 2 + (1 / 1024) ** 2), rtol=1e-9)


def test_compute_gradient_rejects_a_bare_tensor_and_integers():
    with pytest.raises(ValueError, match="list or tuple"):
        tf.test.compute_gradient(lambda t: t, tf.constant([1.0]))
    with pytest.raises(TypeError, match="floating-point"):
        tf.test.compute_gradient(lambda t: t, [tf.constant([1])])


def test_device_queries_on_this_machine():
    has_gpu = bool(tf.config.list_physical_devices("GPU"))
    assert tf.test.gpu_device_name() == ("/device:GPU:0" if has_gpu else "")
    with pytest.warns(DeprecationWarning):
        assert tf.test.is_gpu_available() == has_gpu
    assert tf.test.is_built_with_xla() and tf.test.is_built_with_gpu_support() == has_gpu


def test_test_case_assertions_pass_and_fail_as_tf():
    class _Assertions(tf.test.TestCase):
        def test_passing(self):
            self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0 + 1e-7])
            self.assertAllClose(tf.constant([np.nan]), [np.nan])
            self.assertAllEqual(tf.constant([[1, 2]]), np.array([[1, 2]]))
            self.assertAllGreater(tf.constant([2, 3]), 1)
            self.assertAllLessEqual(tf.Variable([1.0, 2.0]), 2.0)
            self.assertAllInRange(tf.constant([0.5, 1.0]), 0.0, 1.0)
            self.assertAllInSet(tf.constant([1, 2, 1]), {1, 2})
            self.assertDTypeEqual(tf.constant([1.0]), tf.float32)
            self.assertNotAllClose(tf.constant([1.0]), [2.0])
            self.assertEqual(self.evaluate({"x": [tf.constant(3)]}), {"x": [3]})
            with self.assertRaisesOpError(r"is not in \[0, 2\)"):
                tf.gather(tf.constant([1, 2]), 5)

        def test_failing_close(self):
            self.assertAllClose(tf.constant([1.0]), [1.1])

        def test_failing_equal_shapes(self):
            self.assertAllEqual([1, 2], [1, 2, 3])

        def test_failing_range(self):
            self.assertAllInRange(tf.constant([1.0]), 0.0, 1.0, open_upper_bound=True)

    with open("/dev/null", "w") as sink:  # a class made here, so pytest does not collect it itself
        result = unittest.TextTestRunner(stream=sink, verbosity=0).run(
            unittest.defaultTestLoader.loadTestsFromTestCase(_Assertions))
    assert result.testsRun == 4 and not result.errors, result.errors
    assert sorted(test.id().rsplit(".", 1)[1] for test, _ in result.failures) == [
        "test_failing_close", "test_failing_equal_shapes", "test_failing_range"], result.failures

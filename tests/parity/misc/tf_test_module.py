"""tf.test: the gradient checker, device queries and TestCase's tensor assertions."""
import unittest

import numpy as np
import tensorflow as tf


def f(v, w):
    return tf.reduce_sum(v * w, axis=0) + tf.sin(v[0])


th, nu = tf.test.compute_gradient(f, [tf.constant([[1.0, 2.0], [3., 4.]]), tf.constant([[2., 3.], [1., 0.]])])
print([t.round(4).tolist() for t in th])
print([n.round(3).tolist() for n in nu])
print(th[0].dtype, th[0].shape)
print(tf.test.compute_gradient(lambda x: x ** 3, [np.array([0.5, 2.0])])[1][0].round(5).tolist())
print(max(float(np.abs(a - b).max()) for a, b in zip(th, nu)) < 1e-2)
try:
    tf.test.compute_gradient(lambda x: x, tf.constant([1.0]))
except Exception as e:
    print(type(e).__name__)
print(repr(tf.test.gpu_device_name()), tf.test.is_built_with_xla())
class T(tf.test.TestCase):
    def test_a(self):
        self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0 + 1e-7])
        self.assertAllEqual(tf.constant([[1, 2]]), np.array([[1, 2]]))
        self.assertAllGreater(tf.constant([2, 3]), 1)
        self.assertAllInRange(tf.constant([0.5]), 0., 1.)
        self.assertDTypeEqual(tf.constant([1.0]), tf.float32)
        self.assertNotAllClose(tf.constant([1.0]), [2.0])
        self.assertEqual(self.evaluate(tf.constant(3)), 3)
        self.assertNear(1.0, 1.05, 0.1)
        with self.assertRaises(AssertionError):
            self.assertAllClose(tf.constant([1.0]), [1.1])
        with self.assertRaises(AssertionError):
            self.assertAllEqual([1, 2], [1, 2, 3])
suite = unittest.defaultTestLoader.loadTestsFromTestCase(T)
r = unittest.TextTestRunner(stream=open("/dev/null", "w")).run(suite)  # noqa: SIM115
print(r.wasSuccessful())

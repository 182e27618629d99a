"""`TestCase`: ``tf.test.TestCase``'s assertions over tensors (NumPy comparisons of their values)."""

import tempfile
import unittest

import numpy as np

from companion._core._errors import OpError


def _value(a):
    """A tensor, Variable, nested list or number as a NumPy array (tensors through ``.numpy()``)."""
    if hasattr(a, "numpy"):
        return np.asarray(a.numpy())
    if isinstance(a, (list, tuple)) and any(hasattr(v, "numpy") for v in a):
        return np.asarray([_value(v) for v in a])
    return np.asarray(a)


def _tolerances(a, b, rtol, atol):
    """TF's looser default tolerances for half precision."""
    if any(np.asarray(v).dtype == np.float16 for v in (a, b)):
        return max(rtol, 1e-3), max(atol, 1e-3)
    return rtol, atol


class TestCase(unittest.TestCase):
    """A `unittest.TestCase` with TF's tensor assertions (``assertAllClose``, ``assertAllEqual``, ...)
    and ``evaluate`` (tensors to NumPy). Run the file with ``companion.test.main()``."""

    def evaluate(self, tensors):
        """``tensors`` (a tensor or a nested list/tuple/dict of them) with NumPy values."""
        if isinstance(tensors, dict):
            return {k: self.evaluate(v) for k, v in tensors.items()}
        if isinstance(tensors, (list, tuple)):
            return type(tensors)(self.evaluate(v) for v in tensors)
        return tensors.numpy() if hasattr(tensors, "numpy") else tensors

    def get_temp_dir(self):
        """A temporary folder for this test (made on first use)."""
        if not hasattr(self, "_temp_dir"):
            self._temp_dir = tempfile.mkdtemp(prefix=f"{type(self).__name__}_")
        return self._temp_dir

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802 - TF's names
        a, b = _value(a), _value(b)
        rtol, atol = _tolerances(a, b, rtol, atol)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=msg or "", equal_nan=True)

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        a, b = _value(a), _value(b)
        self.assertEqual(a.shape, b.shape, msg or f"shapes differ: {a.shape} vs {b.shape}")
        np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol)
        except AssertionError:
            return
        raise AssertionError(msg or "The two values are close at all elements.")

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        if np.array_equal(_value(a), _value(b)):
            raise AssertionError(msg or "The two values are equal at all elements.")

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        self.assertTrue(abs(float(f1) - float(f2)) <= err,
                        msg or f"{f1} != {f2} +/- {err}")

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        self.assertEqual(len(farray1), len(farray2), msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(f1, f2, err, msg)

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        self.assertTrue(np.all(_value(a) > comparison_target),
                        f"not all of {_value(a)} > {comparison_target}")

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self.assertTrue(np.all(_value(a) >= comparison_target),
                        f"not all of {_value(a)} >= {comparison_target}")

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self.assertTrue(np.all(_value(a) < comparison_target),
                        f"not all of {_value(a)} < {comparison_target}")

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self.assertTrue(np.all(_value(a) <= comparison_target),
                        f"not all of {_value(a)} <= {comparison_target}")

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        values = _value(target)
        low = values > lower_bound if open_lower_bound else values >= lower_bound
        high = values < upper_bound if open_upper_bound else values <= upper_bound
        self.assertTrue(np.all(low & high), f"{values} is not all in range [{lower_bound}, {upper_bound}]")

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        extra = set(_value(target).ravel().tolist()) - set(expected_set)
        self.assertFalse(extra, f"elements {sorted(extra)} are not in {expected_set}")

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        dtype = getattr(target, "dtype", None)
        if dtype is None:
            dtype = _value(target).dtype
        dtype = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
        expected = np.dtype(getattr(expected_dtype, "as_numpy_dtype", expected_dtype))
        self.assertEqual(dtype, expected)

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        self.assertEqual(tuple(np.shape(_value(input_a))), tuple(input_b.shape), msg)

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        return self.assertRaisesRegex(OpError, expected_err_re_or_predicate)

    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        return self.assertRaisesRegex(exception_type, expected_err_re_or_predicate)

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        self.assertTrue(actual.startswith(expected_start), msg or f"{actual!r} does not start with "
                        f"{expected_start!r}")


def main(argv=None):
    """Runs the tests of the calling module (``unittest.main``), as ``tf.test.main()``."""
    unittest.main(argv=argv)

"""The shared oracle checks: an op against NumPy, and its tape gradient against finite differences."""

import numpy as np

import companion as tf


def check_op(fn, reference, *inputs, rtol=1e-5, atol=1e-6, grad=True, grad_rtol=1e-4, **params):
    """Checks ``fn(*tensors, **params)`` against ``reference(*arrays, **params)``.

    Inputs are NumPy arrays (converted with `companion.constant`, so they keep their
    dtype) or Python values passed through unchanged. When ``grad`` is true (pass
    ``grad=False`` for integer-only or non-differentiable ops), the tape gradient of
    ``sum(fn(...) * w)`` for a fixed random ``w`` is compared with central finite
    differences of the same function.
    """
    tensors = [tf.constant(x) if isinstance(x, np.ndarray) else x for x in inputs]
    got = fn(*tensors, **params)
    want = reference(*inputs, **params)
    _assert_close(got, want, rtol, atol)
    if grad:
        check_gradient(fn, *inputs, rtol=grad_rtol, **params)
    return got


def check_gradient(fn, *inputs, rtol=1e-4, atol=1e-6, eps=1e-6, **params):
    """Tape gradients of ``sum(fn(...) * w)`` w.r.t. each float64 array input vs finite differences."""
    positions = [i for i, x in enumerate(inputs) if isinstance(x, np.ndarray) and x.dtype == np.float64]
    if not positions:
        raise ValueError("check_gradient needs at least one float64 NumPy input; pass grad=False.")
    probe = np.asarray(fn(*[tf.constant(x) if isinstance(x, np.ndarray) else x for x in inputs], **params))
    weights = np.random.default_rng(0).normal(size=probe.shape)

    def scalar(arrays):
        args = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in arrays]
        return float(np.sum(np.asarray(fn(*args, **params)) * weights))

    sources = [tf.constant(inputs[i]) for i in positions]
    with tf.GradientTape() as tape:
        tape.watch(sources)
        args = list(inputs)
        for i, s in zip(positions, sources):
            args[i] = s
        args = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in args]
        out = fn(*args, **params)
        total = tf.reduce_sum(out * tf.constant(weights))
    grads = tape.gradient(total, sources)
    for i, g in zip(positions, grads):
        numeric = _finite_difference(scalar, list(inputs), i, eps)
        assert g is not None, f"gradient for input {i} is None"
        dense = tf.convert_to_tensor(g)  # a row lookup's gradient is IndexedSlices, as in TF
        np.testing.assert_allclose(np.asarray(dense), numeric, rtol=rtol, atol=atol)


def _finite_difference(scalar, arrays, index, eps):
    base = arrays[index]
    result = np.zeros_like(base)
    for pos in np.ndindex(base.shape):
        plus, minus = base.copy(), base.copy()
        plus[pos] += eps
        minus[pos] -= eps
        arrays[index] = plus
        f_plus = scalar(arrays)
        arrays[index] = minus
        f_minus = scalar(arrays)
        result[pos] = (f_plus - f_minus) / (2 * eps)
    arrays[index] = base
    return result


def _assert_close(got, want, rtol, atol):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            _assert_close(g, w, rtol, atol)
        return
    got_array = np.asarray(got)
    want_array = np.asarray(want)
    assert got_array.shape == want_array.shape, f"shape {got_array.shape} != {want_array.shape}"
    if want_array.dtype.kind in "fc":
        np.testing.assert_allclose(got_array, want_array, rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(got_array, want_array)

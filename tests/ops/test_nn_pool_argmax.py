"""nn.max_pool_with_argmax against a NumPy loop over the windows (TF's CPU kernel's rule: the first
maximum in row-major order, padded positions never win), its gradient, and its errors."""

import numpy as np
import pytest

import companion as tf


def _oracle(x, k, s, padding, include_batch):
    batch, height, width, channels = x.shape
    if padding == "VALID":
        out_h, out_w, top, left = (height - k) // s + 1, (width - k) // s + 1, 0, 0
    else:
        out_h, out_w = -(-height // s), -(-width // s)
        top = max((out_h - 1) * s + k - height, 0) // 2
        left = max((out_w - 1) * s + k - width, 0) // 2
    out = np.zeros((batch, out_h, out_w, channels), x.dtype)
    arg = np.zeros(out.shape, np.int64)
    for b, i, j, c in np.ndindex(*out.shape):
        best, where = None, None
        for y in range(i * s - top, i * s - top + k):
            for xx in range(j * s - left, j * s - left + k):
                if 0 <= y < height and 0 <= xx < width and (best is None or x[b, y, xx, c] > best):
                    best, where = x[b, y, xx, c], (y * width + xx) * channels + c
        out[b, i, j, c] = best
        arg[b, i, j, c] = where + (b * height * width * channels if include_batch else 0)
    return out, arg


@pytest.mark.parametrize("k, s, padding, include_batch", [(2, 2, "VALID", False), (2, 2, "SAME", True),
                                                         (3, 2, "SAME", False), (3, 1, "VALID", True)])
def test_matches_the_window_loop(k, s, padding, include_batch):
    x = np.random.default_rng(0).integers(0, 5, (2, 5, 6, 3)).astype(np.float32)  # many ties
    out, arg = tf.nn.max_pool_with_argmax(x, k, s, padding, include_batch_in_index=include_batch)
    want_out, want_arg = _oracle(x, k, s, padding, include_batch)
    np.testing.assert_array_equal(out.numpy(), want_out)
    np.testing.assert_array_equal(arg.numpy(), want_arg)
    assert arg.dtype == tf.int64


def test_integer_input_and_int32_indices():
    x = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1)[:, ::-1]
    out, arg = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", output_dtype=tf.int32)
    want_out, want_arg = _oracle(np.ascontiguousarray(x), 2, 2, "VALID", False)
    assert out.dtype == tf.int32 and arg.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), want_out)
    np.testing.assert_array_equal(arg.numpy(), want_arg)


def test_gradient_goes_to_the_argmax():
    x = np.random.default_rng(1).normal(size=(2, 5, 5, 2)).astype(np.float32)
    w = np.random.default_rng(2).normal(size=(2, 3, 3, 2)).astype(np.float32)
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        out, arg = tf.nn.max_pool_with_argmax(v, 3, 2, "SAME", include_batch_in_index=True)
        loss = tf.reduce_sum(out * w)
    expected = np.zeros(x.size, np.float32)
    np.add.at(expected, arg.numpy().ravel(), w.ravel())  # d loss / d x: each window's weight at its max
    np.testing.assert_allclose(tape.gradient(loss, v).numpy().ravel(), expected, rtol=1e-6)


@pytest.mark.parametrize("call, error", [
    (lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME", data_format="NCHW"), ValueError),
    (lambda x: tf.nn.max_pool_with_argmax(x[0], 2, 2, "SAME"), tf.errors.InvalidArgumentError),
    (lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "FULL"), tf.errors.InvalidArgumentError),
    (lambda x: tf.nn.max_pool_with_argmax(x, [1, 2, 2, 2], 2, "SAME"), tf.errors.UnimplementedError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call(tf.zeros([1, 4, 4, 2]))

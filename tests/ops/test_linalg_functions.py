"""The matrix functions of `companion.linalg` added in issue #19 (group 5): bands and diagonals,
decompositions, pseudo-inverse, solves, cross and normalize, against NumPy/SciPy and TF 2.21, with
gradients; and `nn.depthwise_conv2d` and `nn.weighted_cross_entropy_with_logits`."""

import numpy as np
import pytest
import scipy.linalg

import companion as tf
from tests.checks import check_gradient, check_op


def _np_band(m, lower, upper):
    rows, cols = np.indices(m.shape[-2:])
    keep = ((lower < 0) | (rows - cols <= lower)) & ((upper < 0) | (cols - rows <= upper))
    return np.where(keep, m, 0)


@pytest.mark.parametrize("lower, upper", [(0, -1), (1, 0), (-1, 1), (0, 0)])
def test_band_part(rng, lower, upper):
    m = rng.normal(size=(2, 3, 4))
    check_op(lambda x: tf.linalg.band_part(x, lower, upper), lambda x: _np_band(x, lower, upper), m)


def test_band_part_tf_value():
    m = tf.reshape(tf.range(12.0), (3, 4))
    # TF 2.21: band_part(m, 1, 0) keeps the diagonal and the one below it
    assert tf.linalg.band_part(m, 1, 0).numpy().tolist() == [
        [0.0, 0.0, 0.0, 0.0], [4.0, 5.0, 0.0, 0.0], [0.0, 9.0, 10.0, 0.0]]


@pytest.mark.parametrize("k", [0, 1, -1])
def test_set_diag(rng, k):
    m = rng.normal(size=(3, 4))
    length = len(np.diagonal(m, k))
    d = rng.normal(size=(length,))

    def reference(x, v):
        out = x.copy()
        i = np.arange(length) + max(-k, 0)
        out[i, i + k] = v
        return out

    check_op(lambda x, v: tf.linalg.set_diag(x, v, k=k), reference, m, d)
    with pytest.raises(tf.errors.InvalidArgumentError, match="diagonal"):
        tf.linalg.set_diag(tf.constant(m), tf.zeros(7, tf.float64), k=k)


def test_tensor_diag_part():
    x = np.arange(16.0).reshape(2, 2, 2, 2)
    # TF 2.21: [[0, 5], [10, 15]]
    assert tf.linalg.tensor_diag_part(tf.constant(x)).numpy().tolist() == [[0.0, 5.0], [10.0, 15.0]]
    np.testing.assert_array_equal(tf.linalg.tensor_diag_part(tf.constant(x[0, 0])).numpy(), np.diag(x[0, 0]))


@pytest.mark.parametrize("shape, full", [
    ((3, 3), False), ((4, 2), False), ((4, 2), True), ((2, 3, 2), False)])
def test_qr(rng, shape, full):
    a = rng.normal(size=shape)
    q, r = tf.linalg.qr(tf.constant(a), full_matrices=full)
    rows, cols = shape[-2:]
    assert q.shape == shape[:-2] + ((rows, rows) if full else (rows, min(rows, cols)))
    np.testing.assert_allclose((q @ r).numpy(), a, atol=1e-10)
    np.testing.assert_allclose(np.triu(r.numpy()), r.numpy())
    np.testing.assert_allclose(np.swapaxes(q.numpy(), -1, -2) @ q.numpy(), np.broadcast_to(
        np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2), atol=1e-10)


def test_qr_gradient(rng):
    check_gradient(lambda x: tf.linalg.qr(x)[1], rng.normal(size=(3, 3)))


def test_svd_order_and_shapes(rng):
    a = rng.normal(size=(3, 2))
    s, u, v = tf.linalg.svd(tf.constant(a))
    # TF 2.21 shapes: (2,), (3, 2), (2, 2); full_matrices: u (3, 3)
    assert (s.shape, u.shape, v.shape) == ((2,), (3, 2), (2, 2))
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, a, atol=1e-10)
    np.testing.assert_allclose(tf.linalg.svd(tf.constant(a), compute_uv=False).numpy(),
                               np.linalg.svd(a, compute_uv=False))
    assert tf.linalg.svd(tf.constant(a), full_matrices=True)[1].shape == (3, 3)
    check_gradient(lambda x: tf.linalg.svd(x, compute_uv=False), a)


def test_eigh_and_eigvalsh(rng):
    b = rng.normal(size=(3, 3))
    a = b + b.T
    e, v = tf.linalg.eigh(tf.constant(a))
    np.testing.assert_allclose(e.numpy(), np.linalg.eigvalsh(a), atol=1e-10)
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * e.numpy(), atol=1e-10)
    np.testing.assert_allclose(tf.linalg.eigvalsh(tf.constant(a)).numpy(), np.linalg.eigvalsh(a), atol=1e-10)
    check_gradient(lambda x: tf.linalg.eigvalsh(x + tf.linalg.matrix_transpose(x)), b)


def test_pinv(rng):
    # TF 2.21: pinv([[1, 2], [2, 4]]) = [[0.04, 0.08], [0.08, 0.16]]
    got = tf.linalg.pinv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    np.testing.assert_allclose(got.numpy(), [[0.04, 0.08], [0.08, 0.16]], rtol=1e-5)
    check_op(tf.linalg.pinv, np.linalg.pinv, rng.normal(size=(4, 3)))


def test_logdet_and_expm(rng):
    b = rng.normal(size=(3, 3))
    spd = b @ b.T + 3 * np.eye(3)
    check_op(tf.linalg.logdet, lambda x: np.linalg.slogdet(x)[1], spd, grad=False)
    shift = 3 * tf.eye(3, dtype=tf.float64)
    check_gradient(lambda x: tf.linalg.logdet(tf.matmul(x, x, transpose_b=True) + shift), b)
    check_op(tf.linalg.expm, scipy.linalg.expm, b * 0.5)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_triangular_solve(rng, lower, adjoint):
    m = rng.normal(size=(3, 3)) + 4 * np.eye(3)
    rhs = rng.normal(size=(3, 2))

    def reference(a, b):
        tri = np.tril(a) if lower else np.triu(a)
        return np.linalg.solve(tri.T if adjoint else tri, b)

    check_op(lambda a, b: tf.linalg.triangular_solve(a, b, lower=lower, adjoint=adjoint), reference, m, rhs)


def test_lstsq(rng):
    a, b = rng.normal(size=(5, 3)), rng.normal(size=(5, 2))
    check_op(tf.linalg.lstsq, lambda x, y: np.linalg.lstsq(x, y, rcond=None)[0], a, b)
    wide, rhs = rng.normal(size=(2, 4)), rng.normal(size=(2, 1))  # minimum-norm solution
    check_op(tf.linalg.lstsq, lambda x, y: np.linalg.pinv(x) @ y, wide, rhs)
    # TF 2.21 with l2_regularizer=1.0: [[0.875], [1.375]]
    a = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    got = tf.linalg.lstsq(a, tf.constant([[1.0], [2.0], [3.0]]), l2_regularizer=1.0)
    np.testing.assert_allclose(got.numpy(), [[0.875], [1.375]], rtol=1e-5)


def test_cross(rng):
    check_op(tf.linalg.cross, np.cross, rng.normal(size=(2, 3)), rng.normal(size=(2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="3"):
        tf.linalg.cross(tf.ones(2), tf.ones(2))


def test_normalize():
    unit, length = tf.linalg.normalize(tf.constant([3.0, 4.0]))
    # TF 2.21: ([0.6, 0.8], [5.]); axis=1 keeps a size-1 axis; ord=1 over everything gives [[8.]]
    np.testing.assert_allclose(unit.numpy(), [0.6, 0.8])
    assert length.shape == (1,) and float(length[0]) == 5.0
    m = tf.constant([[3.0, 4.0], [1.0, 0.0]])
    unit, length = tf.linalg.normalize(m, axis=1)
    assert length.numpy().tolist() == [[5.0], [1.0]]
    unit, length = tf.linalg.normalize(m, ord=1)
    assert length.numpy().tolist() == [[8.0]]
    np.testing.assert_allclose(unit.numpy(), m.numpy() / 8.0)


def test_linalg_functions_are_not_top_level():
    assert not hasattr(tf, "qr") and not hasattr(tf, "svd") and not hasattr(tf, "band_part")


def _np_depthwise(x, k, stride=1):
    height, width, channels, mult = k.shape
    out_h = (x.shape[1] - height) // stride + 1
    out_w = (x.shape[2] - width) // stride + 1
    out = np.zeros((x.shape[0], out_h, out_w, channels * mult))
    for i in range(out_h):
        for j in range(out_w):
            patch = x[:, i * stride:i * stride + height, j * stride:j * stride + width, :]
            out[:, i, j, :] = np.einsum("bhwc,hwcm->bcm", patch, k).reshape(x.shape[0], -1)
    return out


@pytest.mark.parametrize("stride", [1, 2])
def test_depthwise_conv2d(rng, stride):
    x, k = rng.normal(size=(2, 5, 5, 3)), rng.normal(size=(2, 2, 3, 2))
    check_op(lambda a, b: tf.nn.depthwise_conv2d(a, b, strides=[1, stride, stride, 1], padding="VALID"),
             lambda a, b: _np_depthwise(a, b, stride), x, k)


def test_depthwise_conv2d_tf_values():
    x = np.arange(16.0, dtype=np.float32).reshape(1, 4, 4, 1)
    x2 = tf.concat([tf.constant(x), tf.constant(x) * 2], axis=-1)
    k2 = tf.reshape(tf.range(1.0, 17.0), (2, 2, 2, 2))
    got = tf.nn.depthwise_conv2d(x2, k2, strides=[1, 1, 1, 1], padding="VALID")
    # TF 2.21: the first output row
    assert got[0, 0].numpy().tolist() == [[106.0, 116.0, 252.0, 272.0], [134.0, 148.0, 324.0, 352.0],
                                          [162.0, 180.0, 396.0, 432.0]]
    assert tf.nn.depthwise_conv2d(x2, k2, strides=[1, 2, 2, 1], padding="SAME").shape == (1, 2, 2, 4)
    assert tf.nn.depthwise_conv2d(x2, k2, [1, 1, 1, 1], "VALID", dilations=[2, 2]).shape == (1, 2, 2, 4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="channels"):
        tf.nn.depthwise_conv2d(x2, tf.ones((2, 2, 3, 1)), [1, 1, 1, 1], "VALID")


def test_weighted_cross_entropy_with_logits(rng):
    z, x = rng.uniform(size=(4,)), rng.normal(size=(4,)) * 3

    def reference(labels, logits, q=2.5):
        sig = 1 / (1 + np.exp(-logits))
        return -(q * labels * np.log(sig) + (1 - labels) * np.log(1 - sig))

    check_op(lambda a, b: tf.nn.weighted_cross_entropy_with_logits(a, b, pos_weight=2.5), reference, z, x)
    # TF 2.21: [0.948154, 0.31326175, 1.572881]
    got = tf.nn.weighted_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0, 0.5]),
                                                   logits=tf.constant([0.5, -1.0, 3.0]), pos_weight=2.0)
    np.testing.assert_allclose(got.numpy(), [0.948154, 0.31326175, 1.572881], rtol=1e-6)

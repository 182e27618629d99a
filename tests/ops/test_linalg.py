"""Matrix products, norms and matrix functions against NumPy, with gradients and error messages."""

import numpy as np
import pytest

import companion as tf
import companion.linalg
from tests.checks import check_op


def test_matmul_matches_numpy_and_differentiates(rng):
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(3, 4))
    check_op(tf.matmul, np.matmul, a, b)
    assert (tf.constant(a) @ tf.constant(b)).shape == (2, 4)


def test_matmul_broadcasts_batch_dimensions(rng):
    a, b = rng.normal(size=(2, 1, 3, 4)), rng.normal(size=(5, 4, 2))
    check_op(tf.matmul, np.matmul, a, b)


@pytest.mark.parametrize("flags", [
    {"transpose_a": True}, {"transpose_b": True}, {"transpose_a": True, "transpose_b": True},
    {"adjoint_a": True}, {"adjoint_b": True},
])
def test_matmul_transpose_flags(rng, flags):
    ta = flags.get("transpose_a") or flags.get("adjoint_a")
    tb = flags.get("transpose_b") or flags.get("adjoint_b")
    a = rng.normal(size=(3, 2) if ta else (2, 3))
    b = rng.normal(size=(4, 3) if tb else (3, 4))

    def reference(x, y):
        return (x.T if ta else x) @ (y.T if tb else y)

    check_op(lambda x, y: tf.matmul(x, y, **flags), reference, a, b)


def test_matmul_adjoint_conjugates():
    a = np.array([[1 + 1j, 2j], [3.0, 1 - 1j]])
    got = tf.matmul(tf.constant(a), tf.constant(a), adjoint_a=True)
    np.testing.assert_allclose(got.numpy(), a.conj().T @ a)


def test_matmul_python_values_and_integers():
    got = tf.matmul([[1, 2]], tf.constant([[3], [4]]))
    assert got.dtype == tf.int32 and int(got[0, 0]) == 11


def test_matmul_errors():
    with pytest.raises(tf.InvalidArgumentError, match="matmul between tensors of dtypes float32 and float64"):
        tf.matmul(tf.ones((2, 2)), tf.ones((2, 2), tf.float64))
    with pytest.raises(tf.InvalidArgumentError, match=r"incompatible: In\[0\]: \[2, 3\], In\[1\]"):
        tf.matmul(tf.ones((2, 3)), tf.ones((2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match=r"rank >= 2.*\(3,\).*matvec"):
        tf.matmul(tf.ones(3), tf.ones((3, 2)))
    with pytest.raises(tf.InvalidArgumentError, match="batch dimensions must broadcast"):
        tf.matmul(tf.ones((2, 2, 3)), tf.ones((3, 3, 2)))


def test_matvec(rng):
    a, v = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 4))
    check_op(tf.linalg.matvec, lambda x, y: np.einsum("bij,bj->bi", x, y), a, v)
    check_op(lambda x, y: tf.linalg.matvec(x, y, transpose_a=True),
             lambda x, y: np.einsum("bji,bj->bi", x, y), a, rng.normal(size=(2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match="matching N"):
        tf.linalg.matvec(tf.ones((2, 3)), tf.ones(2))


def test_tensordot(rng):
    a, b = rng.normal(size=(2, 3, 4)), rng.normal(size=(4, 3, 5))
    check_op(lambda x, y: tf.tensordot(x, y, 1), lambda x, y: np.tensordot(x, y, 1), a, b)
    check_op(lambda x, y: tf.tensordot(x, y, [[1, 2], [1, 0]]),
             lambda x, y: np.tensordot(x, y, [[1, 2], [1, 0]]), a, b)
    check_op(lambda x, y: tf.tensordot(x, y, [-1, 0]), lambda x, y: np.tensordot(x, y, [[2], [0]]), a, b)
    check_op(lambda x, y: tf.tensordot(x, y, 0), lambda x, y: np.tensordot(x, y, 0), a[0, 0], b[0, 0])
    with pytest.raises(tf.InvalidArgumentError, match=r"summed dimensions must match.*\[3\] on axes \[1\]"):
        tf.tensordot(tf.constant(a), tf.constant(b), [[1], [0]])
    with pytest.raises(tf.InvalidArgumentError, match=r"axes=4 must be in \[0, 3\]"):
        tf.tensordot(tf.constant(a), tf.constant(b), 4)


def test_einsum(rng):
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(3, 4))
    check_op(lambda x, y: tf.einsum("ij,jk->ik", x, y), lambda x, y: np.einsum("ij,jk->ik", x, y), a, b)
    check_op(lambda x: tf.einsum("ij->j", x), lambda x: np.einsum("ij->j", x), a)
    check_op(lambda x: tf.einsum("ii", x), lambda x: np.einsum("ii", x), rng.normal(size=(3, 3)))
    check_op(lambda x, y: tf.linalg.einsum("bi,bi->b", x, y), lambda x, y: np.einsum("bi,bi->b", x, y), a, a)


def test_einsum_errors():
    with pytest.raises(tf.InvalidArgumentError, match="names 2 operand"):
        tf.einsum("ij,jk->ik", tf.ones((2, 2)))
    with pytest.raises(tf.InvalidArgumentError, match=r"not fit operands of shapes \[\(2, 3\), \(2, 3\)\]"):
        tf.einsum("ij,jk->ik", tf.ones((2, 3)), tf.ones((2, 3)))
    with pytest.raises(tf.InvalidArgumentError, match=r"values\[0\] is float32 and values\[1\] is float64"):
        tf.einsum("i,i->", tf.ones(2), tf.ones(2, tf.float64))


@pytest.mark.parametrize("ord_", ["euclidean", 1, 2, np.inf, 3])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_vector_norms(rng, ord_, axis):
    x = rng.normal(size=(3, 4))
    p = 2 if ord_ == "euclidean" else ord_
    if axis is None:
        reference = lambda a: np.linalg.norm(a.ravel(), p)  # noqa: E731
    else:
        reference = lambda a: np.linalg.norm(a, p, axis=axis)  # noqa: E731
    check_op(lambda t: tf.norm(t, ord=ord_, axis=axis), reference, x)


@pytest.mark.parametrize("ord_", ["euclidean", "fro", 1, 2, np.inf])
def test_matrix_norms(rng, ord_):
    x = rng.normal(size=(2, 3, 4))
    p = "fro" if ord_ == "euclidean" else ord_
    check_op(lambda t: tf.norm(t, ord=ord_, axis=[-2, -1]), lambda a: np.linalg.norm(a, p, axis=(1, 2)), x)


def test_norm_keepdims_and_errors(rng):
    x = rng.normal(size=(2, 3))
    check_op(lambda t: tf.norm(t, keepdims=True), lambda a: np.linalg.norm(a).reshape(1, 1), x)
    check_op(lambda t: tf.norm(t, axis=1, keepdims=True),
             lambda a: np.linalg.norm(a, axis=1, keepdims=True), x)
    with pytest.raises(ValueError, match="'fro' is for matrices"):
        tf.norm(tf.constant(x), ord="fro")
    with pytest.raises(ValueError, match=r"matrix norm needs two different axes.*ord=3"):
        tf.norm(tf.constant(x), ord=3, axis=[0, 1])
    with pytest.raises(ValueError, match="axis must be None, an int"):
        tf.norm(tf.zeros((2, 2, 2)), axis=[0, 1, 2])


def test_matrix_transpose_trace_diag(rng):
    x = rng.normal(size=(2, 3, 4))
    check_op(tf.linalg.matrix_transpose, lambda a: np.swapaxes(a, -1, -2), x)
    check_op(tf.linalg.trace, lambda a: np.trace(a, axis1=-2, axis2=-1), x)
    check_op(tf.linalg.diag_part, lambda a: np.diagonal(a, axis1=-2, axis2=-1), x)
    check_op(lambda a: tf.linalg.diag_part(a, k=1), lambda a: np.diagonal(a, 1, axis1=-2, axis2=-1), x)
    v = rng.normal(size=(2, 3))
    check_op(tf.linalg.diag, lambda a: np.stack([np.diag(r) for r in a]), v)
    z = np.array([[1 + 1j, 2.0]])
    np.testing.assert_allclose(tf.linalg.adjoint(tf.constant(z)).numpy(), z.conj().T)
    with pytest.raises(tf.InvalidArgumentError, match=r"matrix_transpose needs .* rank >= 2.*\(3,\)"):
        tf.linalg.matrix_transpose(tf.ones(3))
    with pytest.raises(tf.InvalidArgumentError, match=r"trace needs matrices.*\(3,\)"):
        tf.linalg.trace(tf.ones(3))
    with pytest.raises(tf.InvalidArgumentError, match="main diagonal"):
        tf.linalg.diag(tf.ones(3), k=1)


def _spd(rng, n=3):
    m = rng.normal(size=(2, n, n))
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


def test_inverse_determinant_solve(rng):
    m = _spd(rng)
    check_op(tf.linalg.inv, np.linalg.inv, m, rtol=1e-6)
    check_op(lambda a: tf.linalg.inv(a, adjoint=True), lambda a: np.linalg.inv(np.swapaxes(a, -1, -2)), m)
    check_op(tf.linalg.det, np.linalg.det, m)
    check_op(lambda a: tf.linalg.slogdet(a)[1], lambda a: np.linalg.slogdet(a)[1], m)
    rhs = rng.normal(size=(2, 3, 2))
    check_op(tf.linalg.solve, np.linalg.solve, m, rhs)
    check_op(tf.linalg.cholesky, np.linalg.cholesky, m)


def test_matrix_function_errors():
    with pytest.raises(tf.InvalidArgumentError, match=r"inv needs square matrices.*\(2, 3\)"):
        tf.linalg.inv(tf.ones((2, 3)))
    # TF 2.21 (inv, det, slogdet, cholesky, solve, qr, svd, eigh, lu): InvalidArgumentError eagerly,
    # TypeError while a function traces
    ints = tf.constant([[1, 2], [3, 4]])
    for fn in (tf.linalg.det, tf.linalg.inv, tf.linalg.lu, tf.linalg.qr):
        with pytest.raises(tf.errors.InvalidArgumentError, match="needs a float or complex tensor.*int32"):
            fn(ints)
        with pytest.raises(TypeError, match="needs a float or complex tensor.*int32") as caught:
            tf.function(fn)(ints)
        assert type(caught.value).__name__ == "TypeError"
    with pytest.raises(tf.InvalidArgumentError, match=r"rhs must have shape \[..., 2, K\]"):
        tf.linalg.solve(tf.eye(2), tf.ones((3, 1)))


def test_linalg_namespace():
    assert tf.linalg.eye(2).shape == (2, 2)
    assert set(companion.linalg.__all__) >= {"matmul", "einsum", "tensordot", "norm", "inv", "det", "trace"}


def test_qr_and_slogdet_return_tfs_named_tuples():
    a = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    qr = tf.linalg.qr(a)
    assert type(qr).__name__ == "Qr" and qr._fields == ("q", "r")
    np.testing.assert_allclose((qr.q @ qr.r).numpy(), a.numpy(), rtol=1e-6)
    result = tf.linalg.slogdet(a)
    assert type(result).__name__ == "LogMatrixDeterminant"
    assert result._fields == ("sign", "log_abs_determinant")
    assert float(result.sign) == 1.0 and abs(float(result.log_abs_determinant) - 1.6094379) < 1e-6
    sign, _ = result  # still unpacks as a pair
    assert float(sign) == 1.0


def test_tensor_diag_inverts_tensor_diag_part():
    # TF 2.21: tensor_diag([1., 2.]) is [[1, 0], [0, 2]]; a [2, 2] diagonal gives shape (2, 2, 2, 2)
    np.testing.assert_array_equal(tf.linalg.tensor_diag([1.0, 2.0]).numpy(), [[1.0, 0.0], [0.0, 2.0]])
    d = tf.constant([[1, 2], [3, 4]])
    full = tf.linalg.tensor_diag(d)
    assert full.shape == (2, 2, 2, 2) and full.dtype == tf.int32
    np.testing.assert_array_equal(tf.linalg.tensor_diag_part(full).numpy(), d.numpy())

"""float16 and bfloat16 matrices in tf.linalg: TF's error where it has no kernel (observed with TF 2.21).

LAPACK has no half precision: TF registers no CPU kernel for float16 in most matrix ops
(``NotFoundError`` eagerly, ``InvalidArgumentError`` when a function runs) and its op definitions
refuse bfloat16 (``InvalidArgumentError`` eagerly, ``TypeError`` while a function traces).
MatrixInverse and Qr take float16.
"""

import numpy as np
import pytest

import companion as tf

_MATRIX = [[4.0, 1.0], [1.0, 3.0]]

# (function, dtype, TF's eager class, the first line of TF's eager message)
_EAGER = [
    (tf.linalg.det, "float16", "NotFoundError",
     "Could not find device for node: {{node MatrixDeterminant}} = MatrixDeterminant[T=DT_HALF]"),
    (tf.linalg.logdet, "float16", "NotFoundError",
     "Could not find device for node: {{node Cholesky}} = Cholesky[T=DT_HALF]"),
    (lambda m: tf.linalg.solve(m, m, adjoint=True), "float16", "NotFoundError",
     "Could not find device for node: {{node MatrixSolve}} = MatrixSolve[T=DT_HALF, adjoint=true]"),
    (lambda m: tf.linalg.triangular_solve(m, m, lower=False), "bfloat16", "NotFoundError",
     "Could not find device for node: {{node MatrixTriangularSolve}} = "
     "MatrixTriangularSolve[T=DT_BFLOAT16, adjoint=false, lower=false]"),
    (tf.linalg.eigvalsh, "float16", "NotFoundError",
     "Could not find device for node: {{node SelfAdjointEigV2}} = "
     "SelfAdjointEigV2[T=DT_HALF, compute_v=false]"),
    (lambda m: tf.linalg.svd(m, compute_uv=False), "float16", "NotFoundError",
     "Could not find device for node: {{node Svd}} = Svd[T=DT_HALF, compute_uv=false, full_matrices=false]"),
    (lambda m: tf.linalg.lu(m, output_idx_type=tf.int64), "float16", "NotFoundError",
     "Could not find device for node: {{node Lu}} = Lu[T=DT_HALF, output_idx_type=DT_INT64]"),
    (tf.linalg.expm, "float16", "NotFoundError",
     "Could not find device for node: {{node MatrixSolve}} = MatrixSolve[T=DT_HALF, adjoint=false]"),
    (tf.linalg.det, "bfloat16", "InvalidArgumentError",
     "Value for attr 'T' of bfloat16 is not in the list of allowed values: half, float, double, complex64, "
     "complex128"),
    (tf.linalg.inv, "bfloat16", "InvalidArgumentError",
     "Value for attr 'T' of bfloat16 is not in the list of allowed values: double, float, half, complex64, "
     "complex128"),
    (tf.linalg.qr, "bfloat16", "InvalidArgumentError",
     "Value for attr 'T' of bfloat16 is not in the list of allowed values: double, float, half, complex64, "
     "complex128"),
    (tf.linalg.expm, "bfloat16", "ValueError",
     "tf.linalg.expm does not support matrices of type <dtype: 'bfloat16'>"),
]


@pytest.mark.parametrize("fn, dtype, error, first_line", _EAGER)
def test_eager_error_is_tfs(fn, dtype, error, first_line):
    with pytest.raises(Exception) as info:
        fn(tf.constant(_MATRIX, dtype))
    assert type(info.value).__name__ == error
    assert str(info.value).split("\n")[0] == first_line


# in a function: (function, dtype, TF's class, a line of TF's message)
_STAGED = [
    (tf.linalg.cholesky, "float16", "InvalidArgumentError",
     "No OpKernel was registered to support Op 'Cholesky' used by {{node Cholesky}} with these attrs: "
     "[T=DT_HALF]"),
    (tf.linalg.logdet, "float16", "InvalidArgumentError",
     "No OpKernel was registered to support Op 'Cholesky' used by {{node logdet/Cholesky}} with these attrs: "
     "[T=DT_HALF]"),
    (tf.linalg.eigh, "bfloat16", "TypeError",
     "Value passed to parameter 'input' has DataType bfloat16 not in list of allowed values: float64, "
     "float32, float16, complex64, complex128"),
    (lambda m: tf.linalg.solve(m, m), "bfloat16", "TypeError",
     "Value passed to parameter 'matrix' has DataType bfloat16 not in list of allowed values: float64, "
     "float32, float16, complex64, complex128"),
]


@pytest.mark.parametrize("fn, dtype, error, line", _STAGED)
def test_error_in_a_function_is_tfs(fn, dtype, error, line):
    with pytest.raises(Exception) as info:
        tf.function(fn, autograph=False)(tf.constant(_MATRIX, dtype))
    assert type(info.value).__name__ == error
    assert line in str(info.value)


def test_errors_still_catch_as_before():
    with pytest.raises(tf.errors.InvalidArgumentError):  # companion's dual classes
        tf.function(tf.linalg.det, autograph=False)(tf.constant(_MATRIX, tf.bfloat16))
    with pytest.raises(TypeError):
        tf.linalg.det(tf.constant(_MATRIX, tf.bfloat16))


@pytest.mark.parametrize("staged", [False, True])
def test_float16_inverse_and_qr_compute(staged):
    m = tf.constant(_MATRIX, tf.float16)
    inv = tf.function(tf.linalg.inv)(m) if staged else tf.linalg.inv(m)
    assert inv.dtype == tf.float16
    # TF 2.21's float16 MatrixInverse
    np.testing.assert_array_equal(inv.numpy(), np.array([[0.272705078125, -0.09088134765625],
                                                         [-0.09088134765625, 0.363525390625]], np.float16))
    q, r = tf.function(tf.linalg.qr)(m) if staged else tf.linalg.qr(m)
    assert (q.dtype, r.dtype) == (tf.float16, tf.float16)
    # TF's half-precision Householder QR rounds differently in the last bits
    tf_q = [[-0.9697, -0.2423], [-0.2423, 0.9702]]
    np.testing.assert_allclose(q.numpy().astype(np.float32), tf_q, atol=1e-3)


def test_float32_unchanged():
    m = tf.constant(_MATRIX)
    assert float(tf.linalg.det(m)) == pytest.approx(11.0)
    expected = np.linalg.eigvalsh(np.array(_MATRIX))
    np.testing.assert_allclose(tf.linalg.eigvalsh(m).numpy(), expected, rtol=1e-5)

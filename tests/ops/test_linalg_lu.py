"""linalg.lu and the functions of its (lu, p) result (TF's outputs: tests/parity/linalg/lu.py)."""

import numpy as np
import pytest

import companion as tf


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lu_factors_a_batch_and_its_functions_invert_it(rng, dtype):
    a = rng.standard_normal((3, 4, 4)).astype(dtype) + 4 * np.eye(4, dtype=dtype)
    lu, p = tf.linalg.lu(a)
    assert p.dtype == tf.int32 and p.shape == (3, 4)
    lower = np.tril(lu.numpy(), -1) + np.eye(4)
    upper = np.triu(lu.numpy())
    np.testing.assert_allclose(np.take_along_axis(a, p.numpy()[..., None], axis=-2), lower @ upper,
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lu, p).numpy(), a, rtol=1e-4, atol=1e-4)
    rhs = rng.standard_normal((3, 4, 2)).astype(dtype)
    np.testing.assert_allclose(tf.linalg.lu_solve(lu, p, rhs).numpy(), np.linalg.solve(a, rhs),
                               rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lu, p).numpy(), np.linalg.inv(a),
                               rtol=1e-3, atol=1e-4)


def test_lu_checks_its_arguments():
    with pytest.raises(tf.errors.InvalidArgumentError, match="output_idx_type"):
        tf.linalg.lu(tf.eye(2), output_idx_type=tf.float32)
    lu, p = tf.linalg.lu(tf.eye(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="perm must be an integer tensor of shape"):
        tf.linalg.lu_reconstruct(lu, tf.constant([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"must equal `rhs.shape\[-1\]`"):
        tf.linalg.lu_solve(lu, p, tf.ones([3, 1]))

"""TF32 is off by default (unlike TF), so float32 products are full precision on every device."""

import jax
import numpy as np

import companion as tf


def test_off_by_default_and_switchable():
    assert not tf.config.experimental.tensor_float_32_execution_enabled()
    assert jax.config.jax_default_matmul_precision == "highest"
    try:
        tf.config.experimental.enable_tensor_float_32_execution(True)
        assert tf.config.experimental.tensor_float_32_execution_enabled()
        assert jax.config.jax_default_matmul_precision is None  # the device's default (TF32 on a GPU)
    finally:
        tf.config.experimental.enable_tensor_float_32_execution(False)
    assert not tf.config.experimental.tensor_float_32_execution_enabled()


def test_products_match_float64_to_float32_rounding():
    """On any device the default gives float32 accuracy (TF32 would be off by about 1e-3 relative)."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((64, 256)), rng.standard_normal((256, 32))
    product = tf.matmul(tf.constant(a, tf.float32), tf.constant(b, tf.float32)).numpy()
    np.testing.assert_allclose(product, a @ b, rtol=2e-4, atol=2e-4)
    assert np.max(np.abs(product - a @ b)) < 1e-4

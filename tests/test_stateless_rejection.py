"""random.stateless_gamma / stateless_poisson / stateless_binomial: TensorFlow's numbers for a seed
(values recorded from TF 2.21's CPU kernels), their distributions (SciPy/NumPy moments), gamma's
alpha gradient (implicit reparameterization against finite differences of SciPy's CDF), errors."""

import numpy as np
import pytest
from scipy import special, stats

import companion as tf

# Printed by TensorFlow 2.21 (CPU) for these calls.
TF_GAMMA_ALPHA_1 = [3.4994423, 1.7193093, 2.2487352, 1.8935091, 0.22994834]
TF_GAMMA_TWO = [[0.06695361, 1.6751877], [0.62823546, 1.7017574], [0.18136732, 1.2239856]]
TF_GAMMA_F64 = [1.29336298, 0.09151307, 1.22543957]
TF_POISSON = [5, 5, 4, 6, 3, 6]
TF_POISSON_TWO = [[3.0, 45.0], [2.0, 25.0], [1.0, 35.0]]
TF_POISSON_F64 = [106, 111, 106, 99]
TF_BINOMIAL = [5, 5, 5, 4, 4, 3]
TF_BINOMIAL_THREE = [[3, 30, 42], [3, 16, 48], [3, 23, 40]]
TF_BINOMIAL_BROADCAST = [[1.0, 14.0], [103.0, 581.0]]


def test_gamma_gives_tensorflows_numbers():
    np.testing.assert_allclose(tf.random.stateless_gamma([5], seed=[1, 2], alpha=1.0).numpy(),
                               TF_GAMMA_ALPHA_1, rtol=1e-6)
    two = tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=[0.5, 3.0], beta=[1.0, 2.0])
    np.testing.assert_allclose(two.numpy(), TF_GAMMA_TWO, rtol=1e-6)
    wide = tf.random.stateless_gamma([3], seed=[4, 5], alpha=2.0, dtype=tf.float64)
    assert wide.dtype == tf.float64
    np.testing.assert_allclose(wide.numpy(), TF_GAMMA_F64, rtol=0, atol=1e-8)


def test_poisson_gives_tensorflows_numbers():
    drawn = tf.random.stateless_poisson([6], seed=[1, 2], lam=3.0)
    assert drawn.dtype == tf.int32 and drawn.numpy().tolist() == TF_POISSON
    two = tf.random.stateless_poisson([3, 2], seed=[1, 2], lam=[0.5, 30.0], dtype=tf.float32)
    assert two.dtype == tf.float32 and two.numpy().tolist() == TF_POISSON_TWO
    rate = tf.constant(100.0, tf.float64)
    assert tf.random.stateless_poisson([4], seed=[3, 2], lam=rate).numpy().tolist() == TF_POISSON_F64


def test_binomial_gives_tensorflows_numbers():
    drawn = tf.random.stateless_binomial([6], seed=[1, 2], counts=10, probs=0.3)
    assert drawn.numpy().tolist() == TF_BINOMIAL
    counts, probs = [5.0, 100.0, 50.0], [0.5, 0.2, 0.9]
    three = tf.random.stateless_binomial([3, 3], seed=[1, 2], counts=counts, probs=probs)
    assert three.numpy().tolist() == TF_BINOMIAL_THREE
    wide = tf.random.stateless_binomial([2, 2], seed=[7, 8], counts=[[20.0], [1000.0]], probs=[0.1, 0.6],
                                        output_dtype=tf.float32)
    assert wide.dtype == tf.float32 and wide.numpy().tolist() == TF_BINOMIAL_BROADCAST


@pytest.mark.parametrize("alpha", [0.3, 1.0, 4.5])
def test_gamma_distribution(alpha):
    drawn = tf.random.stateless_gamma([20_000], seed=[3, 1], alpha=alpha, beta=2.0, dtype=tf.float64).numpy()
    assert stats.kstest(drawn, stats.gamma(alpha, scale=0.5).cdf).pvalue > 1e-3


@pytest.mark.parametrize("lam", [0.7, 9.5, 10.0, 250.0])
def test_poisson_distribution(lam):
    drawn = tf.random.stateless_poisson([20_000], seed=[8, 2], lam=lam).numpy()
    assert abs(drawn.mean() - lam) < 5 * np.sqrt(lam / drawn.size)
    assert abs(drawn.var() / lam - 1) < 0.05


@pytest.mark.parametrize("n, p", [(8.0, 0.3), (500.0, 0.05), (200.0, 0.6), (40.0, 0.95)])
def test_binomial_distribution(n, p):
    drawn = tf.random.stateless_binomial([20_000], seed=[8, 2], counts=n, probs=p).numpy()
    assert drawn.min() >= 0 and drawn.max() <= n
    assert abs(drawn.mean() - n * p) < 5 * np.sqrt(n * p * (1 - p) / drawn.size)
    assert abs(drawn.var() / (n * p * (1 - p)) - 1) < 0.06


def test_degenerate_binomial_parameters():
    drawn = tf.random.stateless_binomial([2, 3], seed=[1, 1], counts=[0.0, 7.0, 7.0], probs=[0.5, 0.0, 1.0])
    assert drawn.numpy().tolist() == [[0, 0, 7], [0, 0, 7]]


def test_gamma_alpha_gradient_is_implicit_reparameterization():
    alpha = tf.Variable([0.6, 2.5], dtype=tf.float64)
    with tf.GradientTape() as tape:
        drawn = tf.random.stateless_gamma([4, 2], seed=[1, 2], alpha=alpha, dtype=tf.float64)
    grad = tape.gradient(drawn, alpha).numpy()
    x, a = drawn.numpy(), np.broadcast_to([0.6, 2.5], (4, 2))
    h = 1e-6  # d x / d alpha = -(d CDF / d alpha) / pdf at the drawn x
    dcdf = (special.gammainc(a + h, x) - special.gammainc(a - h, x)) / (2 * h)
    expected = (-dcdf / stats.gamma(a).pdf(x)).sum(axis=0)
    np.testing.assert_allclose(grad, expected, rtol=1e-4)


def test_gamma_beta_gradient():
    beta = tf.Variable(2.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        drawn = tf.random.stateless_gamma([5], seed=[1, 2], alpha=3.0, beta=beta, dtype=tf.float64)
    np.testing.assert_allclose(tape.gradient(drawn, beta).numpy(), -drawn.numpy().sum() / 2.0, rtol=1e-10)


def test_same_numbers_inside_a_function():
    @tf.function
    def draws(seed):
        return (tf.random.stateless_gamma([3, 2], seed=seed, alpha=[0.5, 3.0], beta=[1.0, 2.0]),
                tf.random.stateless_poisson([6], seed=seed, lam=3.0),
                tf.random.stateless_binomial([6], seed=seed, counts=10, probs=0.3))

    gamma, poisson, binomial = draws(tf.constant([1, 2]))
    np.testing.assert_allclose(gamma.numpy(), TF_GAMMA_TWO, rtol=1e-6)
    assert poisson.numpy().tolist() == TF_POISSON and binomial.numpy().tolist() == TF_BINOMIAL


def test_empty_shape_gives_empty_tensor():
    assert tf.random.stateless_gamma([0, 2], seed=[1, 2], alpha=[1.0, 2.0]).shape == (0, 2)
    assert tf.random.stateless_poisson([0], seed=[1, 2], lam=1.0).shape == (0,)


@pytest.mark.parametrize("call, match", [
    (lambda: tf.random.stateless_gamma([3], seed=[1, 2], alpha=[1.0, 2.0]), "must end with"),
    (lambda: tf.random.stateless_poisson([3], seed=[1, 2, 3], lam=1.0), r"seed must have shape \[2\]"),
    (lambda: tf.random.stateless_poisson([3], seed=[1.0, 2.0], lam=1.0), "int32 or int64"),
    (lambda: tf.random.stateless_gamma([3], seed=[1, 2], alpha=1.0, dtype=tf.int32), "dtype must be one of"),
    (lambda: tf.random.stateless_binomial([2], seed=[1, 2], counts=[1.0, 2.0, 3.0], probs=[0.5, 0.5]),
     "must broadcast"),
])
def test_bad_input_is_invalid_argument(call, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        call()

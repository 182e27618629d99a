"""random.log_uniform_candidate_sampler / uniform_candidate_sampler: the drawn classes follow the
documented distributions (chi-square against the formula), expected counts are TF's formulas."""

import numpy as np
import pytest
from scipy import stats

import companion as tf

CLASSES = tf.constant([[0], [3], [49]], tf.int64)


def _log_uniform(k, range_max):
    return np.log((k + 2.0) / (k + 1.0)) / np.log(range_max + 1.0)


def test_log_uniform_draws_follow_the_zipfian_law():
    first = tf.constant([[0]], tf.int64)
    draws = np.concatenate([tf.random.log_uniform_candidate_sampler(first, 1, 1000, False, 10)[0].numpy()
                            for _ in range(20)])
    observed = np.bincount(draws, minlength=10)
    expected = _log_uniform(np.arange(10), 10) * draws.size
    assert stats.chisquare(observed, expected).pvalue > 1e-3


def test_expected_counts_without_unique():
    sampled, true_count, sampled_count = tf.random.log_uniform_candidate_sampler(CLASSES, 1, 8, False, 50)
    assert sampled.dtype == tf.int64 and true_count.dtype == tf.float32
    want = 8 * _log_uniform(np.array([0, 3, 49]), 50)
    np.testing.assert_allclose(true_count.numpy()[:, 0], want, rtol=1e-6)
    np.testing.assert_allclose(sampled_count.numpy(), 8 * _log_uniform(sampled.numpy(), 50), rtol=1e-6)


def test_unique_draws_are_distinct_and_counts_use_the_tries():
    drawn = tf.random.log_uniform_candidate_sampler(CLASSES, 1, 30, True, 50, seed=4)
    sampled, true_count, sampled_count = drawn
    values = sampled.numpy()
    assert len(set(values.tolist())) == 30 and values.min() >= 0 and values.max() < 50
    p = _log_uniform(values, 50)
    # count = 1 - (1 - p) ** tries for one number of tries (>= 30) shared by every class
    tries = np.log1p(-sampled_count.numpy().astype(np.float64)) / np.log1p(-p)
    assert tries.min() >= 30 - 1e-3 and np.ptp(tries) < 1e-2 * tries.mean()
    np.testing.assert_allclose(true_count.numpy()[:, 0], -np.expm1(tries.mean() * np.log1p(
        -_log_uniform(np.array([0, 3, 49]), 50))), rtol=1e-3)


def test_uniform_sampler():
    true = tf.constant([[1, 2]], tf.int64)
    sampled, true_count, _ = tf.random.uniform_candidate_sampler(true, 2, 10, True, 10)
    assert sorted(sampled.numpy().tolist()) == list(range(10))
    sampled, true_count, _ = tf.random.uniform_candidate_sampler(true, 2, 4, False, 10)
    np.testing.assert_allclose(true_count.numpy(), [[0.4, 0.4]])


def test_seeded_draws_repeat():
    tf.random.set_seed(5)
    first = tf.random.log_uniform_candidate_sampler(CLASSES, 1, 6, True, 50, seed=1)[0].numpy()
    tf.random.set_seed(5)
    assert tf.random.log_uniform_candidate_sampler(CLASSES, 1, 6, True, 50, seed=1)[0].numpy().tolist() == \
        first.tolist()
    tf.random.set_seed(None)


@pytest.mark.parametrize("args, match", [
    ((CLASSES, 1, 60, True, 50), "range is too small"),
    ((tf.constant([[1]]), 1, 6, True, 50), "int64"),
    ((CLASSES, 2, 6, True, 50), "num_true columns"),
    ((CLASSES, 1, 6, True, 0), "range_max must be an int >= 1"),
    ((CLASSES, 1, 6, True, 40), "out of range"),
])
def test_errors(args, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        tf.random.log_uniform_candidate_sampler(*args)

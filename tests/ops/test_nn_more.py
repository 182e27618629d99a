"""The less common tf.nn functions, each against a NumPy (or jax.grad) oracle."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(0)


def _lrn_numpy(x, radius, bias, alpha, beta):
    squares = np.square(x)
    out = np.empty_like(x)
    channels = x.shape[-1]
    for c in range(channels):
        low, high = max(0, c - radius), min(channels, c + radius + 1)
        out[..., c] = x[..., c] / (bias + alpha * squares[..., low:high].sum(-1)) ** beta
    return out


@pytest.mark.parametrize("beta", [0.5, 0.75, 1.0])
def test_local_response_normalization_matches_its_formula_and_jax_grad(beta):
    x = RNG.normal(size=(2, 3, 3, 5)).astype(np.float32)
    out = tf.nn.local_response_normalization(x, depth_radius=2, bias=1.5, alpha=0.3, beta=beta)
    np.testing.assert_allclose(out.numpy(), _lrn_numpy(x, 2, 1.5, 0.3, beta), rtol=1e-5)
    variable = tf.Variable(x)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.lrn(variable, 2, 1.5, 0.3, beta) * np.arange(5, dtype=np.float32))

    def f(v):
        sq = jnp.pad(jnp.square(v), ((0, 0),) * 3 + ((2, 2),))
        window = sum(sq[..., i:i + 5] for i in range(5))
        return jnp.sum(v / (1.5 + 0.3 * window) ** beta * jnp.arange(5.0))

    np.testing.assert_allclose(tape.gradient(loss, variable).numpy(), jax.grad(f)(x), rtol=1e-4, atol=1e-6)


def test_space_to_depth_and_back_match_numpy_reshapes():
    x = RNG.normal(size=(2, 4, 6, 3)).astype(np.float32)
    expected = x.reshape(2, 2, 2, 3, 2, 3).transpose(0, 1, 3, 2, 4, 5).reshape(2, 2, 3, 12)
    packed = tf.nn.space_to_depth(x, 2)
    np.testing.assert_array_equal(packed.numpy(), expected)
    np.testing.assert_array_equal(tf.nn.depth_to_space(packed, 2).numpy(), x)
    channels_first = tf.nn.space_to_depth(x.transpose(0, 3, 1, 2), 2, data_format="NCHW")
    np.testing.assert_array_equal(channels_first.numpy(), expected.transpose(0, 3, 1, 2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="multiples of block_size"):
        tf.nn.space_to_depth(x, 4)


def test_log_poisson_loss_and_its_full_form():
    targets = np.array([0.0, 0.5, 2.0, 5.0], np.float32)
    log_input = np.array([0.1, -0.3, 0.7, 1.5], np.float32)
    base = np.exp(log_input) - log_input * targets
    np.testing.assert_allclose(tf.nn.log_poisson_loss(targets, log_input).numpy(), base, rtol=1e-6)
    with np.errstate(divide="ignore", invalid="ignore"):
        stirling = targets * np.log(targets) - targets + 0.5 * np.log(2 * np.pi * targets)
    full = base + np.where((targets >= 0) & (targets <= 1), 0, stirling)
    out = tf.nn.log_poisson_loss(targets, log_input, compute_full_loss=True)
    np.testing.assert_allclose(out.numpy(), full, rtol=1e-6)


def test_sufficient_statistics_normalize_to_numpys_moments():
    x = RNG.normal(size=(5, 3)).astype(np.float32)
    count, total, squares, shift = tf.nn.sufficient_statistics(x, [0])
    assert float(count) == 5.0 and shift is None
    mean, variance = tf.nn.normalize_moments(count, total, squares, None)
    np.testing.assert_allclose(mean.numpy(), x.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(variance.numpy(), x.var(0), rtol=1e-4, atol=1e-6)
    shifted = tf.nn.sufficient_statistics(x, [0], shift=0.7)
    mean, variance = tf.nn.normalize_moments(*shifted)
    np.testing.assert_allclose(mean.numpy(), x.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(variance.numpy(), x.var(0), rtol=1e-4, atol=1e-6)


def test_weighted_moments_count_each_value_by_its_weight():
    x = RNG.normal(size=(4, 3)).astype(np.float32)
    weights = np.array([[1.0], [2.0], [0.5], [3.0]], np.float32)
    mean, variance = tf.nn.weighted_moments(x, [0], weights)
    expected_mean = (x * weights).sum(0) / weights.sum()
    np.testing.assert_allclose(mean.numpy(), expected_mean, rtol=1e-5)
    np.testing.assert_allclose(variance.numpy(), (weights * (x - expected_mean) ** 2).sum(0) / weights.sum(),
                               rtol=1e-5)


def test_crelu_pool_atrous_and_conv_transpose_match_their_definitions():
    x = RNG.normal(size=(1, 6, 6, 2)).astype(np.float32)
    expected = np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], -1)
    np.testing.assert_array_equal(tf.nn.crelu(x).numpy(), expected)
    np.testing.assert_array_equal(tf.nn.pool(x, [2, 2], "MAX", strides=[2, 2]).numpy(),
                                  tf.nn.max_pool2d(x, 2, 2, "VALID").numpy())
    np.testing.assert_allclose(tf.nn.pool(x, [3, 3], "AVG", padding="SAME").numpy(),
                               tf.nn.avg_pool2d(x, 3, 1, "SAME").numpy(), rtol=1e-6)
    filters = RNG.normal(size=(3, 3, 2, 4)).astype(np.float32)
    np.testing.assert_allclose(tf.nn.atrous_conv2d(x, filters, 2, "SAME").numpy(),
                               tf.nn.conv2d(x, filters, 1, "SAME", dilations=2).numpy(), rtol=1e-5)
    y = RNG.normal(size=(1, 3, 3, 4)).astype(np.float32)
    np.testing.assert_allclose(tf.nn.conv_transpose(y, filters, [1, 6, 6, 2], 2).numpy(),
                               tf.nn.conv2d_transpose(y, filters, [1, 6, 6, 2], 2).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="pooling_type"):
        tf.nn.pool(x, [2, 2], "MIN")


def _combine_numpy(table, rows, ids, weights, combiner, n_rows):
    out = np.zeros((n_rows, table.shape[1]), np.float32)
    for r in range(n_rows):
        mine = rows == r
        if not mine.any():
            continue
        total = (table[ids[mine]] * weights[mine, None]).sum(0)
        w = weights[mine]
        scale = {"sum": 1.0, "mean": w.sum(), "sqrtn": np.sqrt((w ** 2).sum())}[combiner]
        out[r] = total / scale
    return out


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_embedding_lookup_sparse_combines_each_rows_embeddings(combiner):
    table = RNG.normal(size=(6, 3)).astype(np.float32)
    indices = np.array([[0, 0], [0, 1], [0, 2], [2, 0], [3, 1]], np.int64)
    ids = np.array([4, 1, 4, 0, 5], np.int64)
    weights = np.array([1.0, 0.5, 2.0, 3.0, 1.5], np.float32)
    sp_ids = tf.SparseTensor(indices, ids, [5, 3])
    sp_weights = tf.SparseTensor(indices, weights, [5, 3])
    out = tf.nn.embedding_lookup_sparse(table, sp_ids, sp_weights, combiner=combiner)
    np.testing.assert_allclose(out.numpy(), _combine_numpy(table, indices[:, 0], ids, weights, combiner, 4),
                               rtol=1e-5)
    safe = tf.nn.safe_embedding_lookup_sparse(table, sp_ids, sp_weights, combiner=combiner, default_id=2)
    expected = _combine_numpy(table, indices[:, 0], ids, weights, combiner, 5)
    expected[[1, 4]] = table[2]
    np.testing.assert_allclose(safe.numpy(), expected, rtol=1e-5)


def test_a_variable_tables_gradient_is_indexed_slices_over_the_distinct_ids():
    table = tf.Variable(RNG.normal(size=(6, 2)).astype(np.float32))
    sp_ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([4, 1, 4], tf.int64), [2, 2])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup_sparse(table, sp_ids, None, combiner="sum"))
    grad = tape.gradient(loss, table)
    assert isinstance(grad, tf.IndexedSlices)
    np.testing.assert_array_equal(grad.indices.numpy(), [4, 1])
    np.testing.assert_array_equal(grad.values.numpy(), [[2.0, 2.0], [1.0, 1.0]])


def test_safe_lookup_drops_negative_ids_and_runs_inside_a_function():
    table = np.arange(6, dtype=np.float32).reshape(3, 2)
    sp_ids = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([-1, 2, 0], tf.int64), [3, 2])
    eager = tf.nn.safe_embedding_lookup_sparse(table, sp_ids, combiner="sum")
    np.testing.assert_array_equal(eager.numpy(), [[0, 0], [4, 6], [0, 0]])
    staged = tf.function(lambda s: tf.nn.safe_embedding_lookup_sparse(table, s, combiner="sum"))(sp_ids)
    np.testing.assert_array_equal(staged.numpy(), eager.numpy())

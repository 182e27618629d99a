"""companion.sparse and SparseTensor, checked against the dense NumPy computation of each op."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf


def _random_sparse(shape, count, seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    linear = np.sort(rng.choice(int(np.prod(shape)), size=count, replace=False))
    indices = np.stack(np.unravel_index(linear, shape), axis=1).astype(np.int64)
    values = rng.normal(size=count).astype(dtype)
    dense = np.zeros(shape, dtype)
    dense[tuple(indices.T)] = values
    return tf.SparseTensor(indices, values, shape), dense


def test_to_dense_and_from_dense_round_trip():
    sp, dense = _random_sparse((4, 5, 3), 12)
    np.testing.assert_array_equal(tf.sparse.to_dense(sp).numpy(), dense)
    back = tf.sparse.from_dense(dense)
    np.testing.assert_array_equal(back.indices.numpy(), np.argwhere(dense != 0))
    np.testing.assert_array_equal(back.values.numpy(), dense[dense != 0])
    assert back.shape.as_list() == [4, 5, 3] and back.indices.dtype == tf.int64
    filled = tf.sparse.to_dense(sp, default_value=7.0).numpy()
    np.testing.assert_array_equal(filled, np.where(dense != 0, dense, 7.0))
    strings = tf.sparse.from_dense(tf.constant([["a", ""], ["", "b"]]))
    assert strings.values.numpy().tolist() == [b"a", b"b"]
    assert tf.sparse.to_dense(strings).numpy().tolist() == [[b"a", b""], [b"", b"b"]]


@pytest.mark.parametrize("adjoint_a,adjoint_b", [(False, False), (True, False), (False, True), (True, True)])
def test_sparse_dense_matmul_matches_numpy_both_ways(adjoint_a, adjoint_b):
    sp, dense = _random_sparse((4, 6), 9, seed=1)
    rng = np.random.default_rng(2)
    a = dense.T if adjoint_a else dense
    b = rng.normal(size=(a.shape[1], 3)).astype(np.float32)
    b_given = b.T.copy() if adjoint_b else b
    out = tf.sparse.sparse_dense_matmul(sp, b_given, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    np.testing.assert_allclose(out.numpy(), a @ b, rtol=1e-5, atol=1e-6)
    left = rng.normal(size=(2, dense.shape[0])).astype(np.float32)
    np.testing.assert_allclose(tf.sparse.sparse_dense_matmul(left, sp).numpy(), left @ dense, rtol=1e-5,
                               atol=1e-6)


def test_gradients_reach_the_dense_operand_and_the_values_densely():
    sp, dense = _random_sparse((3, 4), 5, seed=3)
    b0 = np.random.default_rng(4).normal(size=(4, 2)).astype(np.float32)
    b = tf.Variable(b0)
    values = tf.Variable(sp.values.numpy())
    with tf.GradientTape() as tape:
        product = tf.sparse.sparse_dense_matmul(tf.SparseTensor(sp.indices, values * 1.0, [3, 4]), b)
        loss = tf.reduce_sum(product ** 2)
    grad_b, grad_values = tape.gradient(loss, [b, values])
    idx = sp.indices.numpy()

    def f(vals, bb):
        mat = jnp.zeros((3, 4)).at[tuple(idx.T)].set(vals)
        return jnp.sum((mat @ bb) ** 2)

    expected_values, expected_b = jax.grad(f, argnums=(0, 1))(sp.values.numpy(), b0)
    assert isinstance(grad_b, tf.Tensor)  # dense, as TF's, not IndexedSlices
    np.testing.assert_allclose(grad_b.numpy(), expected_b, rtol=1e-5)
    np.testing.assert_allclose(grad_values.numpy(), expected_values, rtol=1e-5)


@pytest.mark.parametrize("axis", [None, 0, 1, 2, [0, 2], -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduce_sum_matches_the_dense_sum(axis, keepdims):
    sp, dense = _random_sparse((3, 4, 2), 10, seed=5)
    axes = tuple(axis) if isinstance(axis, list) else axis
    np.testing.assert_allclose(tf.sparse.reduce_sum(sp, axis=axis, keepdims=keepdims).numpy(),
                               dense.sum(axis=axes, keepdims=keepdims), rtol=1e-5, atol=1e-6)


def test_reduce_max_looks_at_present_values_only_and_sparse_outputs_keep_present_groups():
    sp = tf.SparseTensor([[0, 0], [0, 1], [2, 1]], [-3.0, -1.0, 4.0], [4, 2])
    np.testing.assert_array_equal(tf.sparse.reduce_max(sp, axis=1).numpy(), [-1.0, 0.0, 4.0, 0.0])
    assert float(tf.sparse.reduce_max(sp)) == 4.0
    summed = tf.sparse.reduce_sum(sp, axis=1, output_is_sparse=True)
    np.testing.assert_array_equal(summed.indices.numpy(), [[0], [2]])
    np.testing.assert_array_equal(summed.values.numpy(), [-4.0, 4.0])
    assert summed.shape.as_list() == [4]


def test_softmax_normalises_each_rows_present_values():
    sp, dense = _random_sparse((3, 5), 8, seed=6)
    out = tf.sparse.softmax(sp)
    idx = sp.indices.numpy()
    for row in range(3):
        mine = idx[:, 0] == row
        if mine.any():
            values = dense[row][idx[mine, 1]]
            expected = np.exp(values - values.max()) / np.exp(values - values.max()).sum()
            np.testing.assert_allclose(out.values.numpy()[mine], expected, rtol=1e-5)


def test_layout_ops_match_their_dense_counterparts():
    sp, dense = _random_sparse((3, 4), 6, seed=7)
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.sparse.reshape(sp, [2, -1])).numpy(),
                                  dense.reshape(2, 6))
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.sparse.transpose(sp)).numpy(), dense.T)
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.sparse.expand_dims(sp, 1)).numpy(), dense[:, None])
    for axis in (0, 1):
        joined = tf.sparse.concat(axis, [sp, sp * 2.0])
        np.testing.assert_array_equal(tf.sparse.to_dense(joined).numpy(),
                                      np.concatenate([dense, 2 * dense], axis=axis))
    cut = tf.sparse.slice(sp, [1, 1], [5, 2])
    np.testing.assert_array_equal(tf.sparse.to_dense(cut).numpy(), dense[1:, 1:3])
    shuffled = tf.SparseTensor(sp.indices.numpy()[::-1].copy(), sp.values.numpy()[::-1].copy(), [3, 4])
    ordered = tf.sparse.reorder(shuffled)
    np.testing.assert_array_equal(ordered.indices.numpy(), sp.indices.numpy())
    np.testing.assert_array_equal(ordered.values.numpy(), sp.values.numpy())
    keep = np.arange(6) % 2 == 0
    kept = tf.sparse.retain(sp, keep)
    np.testing.assert_array_equal(kept.values.numpy(), sp.values.numpy()[keep])


def test_fill_empty_rows_adds_a_default_at_column_zero():
    sp = tf.SparseTensor([[0, 1], [2, 2]], [5, 6], [4, 3])
    filled, empty = tf.sparse.fill_empty_rows(sp, -1)
    np.testing.assert_array_equal(empty.numpy(), [False, True, False, True])
    np.testing.assert_array_equal(tf.sparse.to_dense(filled).numpy(),
                                  [[0, 5, 0], [-1, 0, 0], [0, 0, 6], [-1, 0, 0]])


def test_add_sums_shared_entries_drops_small_ones_and_adds_dense_tensors():
    a, dense_a = _random_sparse((3, 3), 4, seed=8)
    b, dense_b = _random_sparse((3, 3), 4, seed=9)
    total = tf.sparse.add(a, b)
    np.testing.assert_allclose(tf.sparse.to_dense(total).numpy(), dense_a + dense_b, rtol=1e-6)
    present = (dense_a != 0) | (dense_b != 0)
    np.testing.assert_array_equal(total.indices.numpy(), np.argwhere(present))
    small = tf.sparse.add(a, b, threshold=0.5)
    assert (np.abs(small.values.numpy()) >= 0.5).all()
    np.testing.assert_allclose(tf.sparse.add(a, np.ones((3, 3), np.float32)).numpy(), dense_a + 1, rtol=1e-6)


def test_scaling_by_dense_tensors_and_map_values():
    sp, dense = _random_sparse((2, 3), 4, seed=10)
    row = np.array([1.0, 10.0, 100.0], np.float32)
    np.testing.assert_allclose(tf.sparse.to_dense(sp * row).numpy(), dense * row, rtol=1e-6)
    np.testing.assert_allclose(tf.sparse.to_dense(sp / 2.0).numpy(), dense / 2, rtol=1e-6)
    np.testing.assert_allclose(tf.sparse.map_values(tf.square, sp).values.numpy(), sp.values.numpy() ** 2)
    eye = tf.sparse.to_dense(tf.sparse.eye(3, 4)).numpy()
    np.testing.assert_array_equal(eye, np.eye(3, 4, dtype=np.float32))


def test_function_takes_and_returns_sparse_tensors():
    sp, dense = _random_sparse((4, 3), 5, seed=11)
    b = np.arange(6, dtype=np.float32).reshape(3, 2)

    @tf.function
    def step(s, d):
        return tf.sparse.sparse_dense_matmul(s, d), tf.sparse.reduce_sum(s, axis=1), s * 2.0

    product, sums, doubled = step(sp, b)
    np.testing.assert_allclose(product.numpy(), dense @ b, rtol=1e-5)
    np.testing.assert_allclose(sums.numpy(), dense.sum(1), rtol=1e-5, atol=1e-6)
    assert isinstance(doubled, tf.SparseTensor)
    np.testing.assert_allclose(tf.sparse.to_dense(doubled).numpy(), 2 * dense, rtol=1e-6)
    step(tf.SparseTensor(sp.indices, sp.values * 3.0, [4, 3]), b)
    assert step.experimental_get_tracing_count() == 1  # same dense shape and sizes: one trace


def test_bad_sparse_input_is_refused_clearly():
    with pytest.raises(ValueError, match="one value per index row"):
        tf.SparseTensor([[0, 0], [1, 1]], [1.0], [2, 2])
    with pytest.raises(ValueError, match=r"shape \[N, 2\]"):
        tf.SparseTensor([[0, 0, 0]], [1.0], [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
        tf.sparse.to_dense(tf.SparseTensor([[1, 0], [0, 1]], [5, 6], [2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        tf.sparse.to_dense(tf.SparseTensor([[5, 0]], [5], [2, 2]))
    with pytest.raises(ValueError, match="sparse.to_dense"):
        tf.convert_to_tensor(tf.SparseTensor([[0, 0]], [1.0], [1, 1]))
    with pytest.raises(TypeError, match="takes a SparseTensor"):
        tf.sparse.reduce_sum([[1.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot take shape"):
        tf.sparse.reshape(tf.SparseTensor([[0, 0]], [1.0], [2, 3]), [4, 2])

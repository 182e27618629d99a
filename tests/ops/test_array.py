"""Shape, layout and selection ops against NumPy, their tape gradients, and their error messages."""

import jax
import numpy as np
import pytest

import companion as tf
from companion._core._context import state
from companion._core._tensor import Tensor
from tests.checks import check_gradient, check_op


def staged(fn, *arrays):
    """Runs ``fn`` on traced tensors, as a staging interpreter (`companion.function`) would."""

    def pure(*values):
        state.staging += 1
        try:
            return fn(*[Tensor(v) for v in values])._value
        finally:
            state.staging -= 1

    return np.asarray(jax.jit(pure)(*arrays))


# -- reshape, squeeze, expand_dims, transpose ---------------------------------------------

def test_reshape_matches_numpy_and_differentiates(rng):
    x = rng.normal(size=(2, 3))
    check_op(lambda t: tf.reshape(t, [3, 2]), lambda a: a.reshape(3, 2), x)
    check_op(lambda t: tf.reshape(t, (-1,)), lambda a: a.reshape(-1), x)
    check_op(lambda t: tf.reshape(t, [1, -1, 2]), lambda a: a.reshape(1, -1, 2), x)


def test_reshape_accepts_tensor_numpy_and_tensorshape_shapes():
    x = tf.range(6)
    assert tf.reshape(x, tf.constant([3, 2])).shape == (3, 2)
    assert tf.reshape(x, np.array([2, 3])).shape == (2, 3)
    assert tf.reshape(x, tf.zeros((6, 1)).shape).shape == (6, 1)
    assert tf.reshape(tf.constant([7]), []).shape == ()


def test_reshape_size_mismatch_says_what_and_how():
    with pytest.raises(tf.InvalidArgumentError, match="tensor with 6 values, but the requested shape has 4"):
        tf.reshape(tf.range(6), [2, 2])
    with pytest.raises(ValueError, match=r"-1 for one dimension.*Received: shape=\[2, 2\]"):
        tf.reshape(tf.range(6), [2, 2])
    with pytest.raises(tf.InvalidArgumentError, match="requires a multiple of 4"):
        tf.reshape(tf.range(6), [4, -1])
    with pytest.raises(tf.InvalidArgumentError, match="only one dimension may be -1"):
        tf.reshape(tf.range(6), [-1, -1])
    with pytest.raises(TypeError, match="shape must be an integer or a list of integers"):
        tf.reshape(tf.range(6), [2.0, 3.0])


def test_reshape_of_variable_is_recorded():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.reshape(v, [-1]) * tf.constant([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [[1.0, 2.0], [3.0, 4.0]])


def test_squeeze_all_and_listed_axes(rng):
    x = rng.normal(size=(1, 3, 1, 2))
    check_op(tf.squeeze, np.squeeze, x)
    check_op(lambda t: tf.squeeze(t, axis=-2), lambda a: np.squeeze(a, axis=2), x)
    check_op(lambda t: tf.squeeze(t, [0, 2]), lambda a: np.squeeze(a, (0, 2)), x)
    with pytest.raises(tf.InvalidArgumentError, match=r"Can not squeeze dim\[1\], expected .* of 1, got 3"):
        tf.squeeze(tf.constant(x), axis=1)


def test_expand_dims(rng):
    x = rng.normal(size=(2, 3))
    for axis in (0, 1, 2, -1, -3):
        check_op(lambda t, a=axis: tf.expand_dims(t, a), lambda v, a=axis: np.expand_dims(v, a), x)
    assert tf.expand_dims(tf.constant(x), tf.constant(1)).shape == (2, 1, 3)
    with pytest.raises(tf.InvalidArgumentError, match=r"axis 3 is out of range.*\[-3, 3\).*Received: axis=3"):
        tf.expand_dims(tf.constant(x), 3)
    with pytest.raises(TypeError, match="axis must be an integer"):
        tf.expand_dims(tf.constant(x), 1.5)


def test_transpose(rng):
    x = rng.normal(size=(2, 3, 4))
    check_op(tf.transpose, np.transpose, x)
    check_op(lambda t: tf.transpose(t, perm=[1, 2, 0]), lambda a: a.transpose(1, 2, 0), x)
    check_op(lambda t: tf.transpose(t, perm=np.array([-1, 0, 1])), lambda a: a.transpose(2, 0, 1), x)
    z = tf.constant(np.array([[1 + 2j, 3j]]))
    np.testing.assert_array_equal(tf.transpose(z, conjugate=True).numpy(), [[1 - 2j], [-3j]])
    with pytest.raises(tf.InvalidArgumentError, match=r"permutation of \[0, 1, 2\].*perm=\[0, 0, 1\]"):
        tf.transpose(tf.constant(x), perm=[0, 0, 1])


def test_broadcast_to(rng):
    x = rng.normal(size=(3, 1))
    check_op(lambda t: tf.broadcast_to(t, [2, 3, 4]), lambda a: np.broadcast_to(a, (2, 3, 4)), x)
    with pytest.raises(tf.InvalidArgumentError, match=r"Unable to broadcast tensor of shape \(3, 1\)"):
        tf.broadcast_to(tf.constant(x), [4, 4])


# -- joining and splitting ----------------------------------------------------------------

def test_concat_matches_numpy_and_differentiates(rng):
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(2, 1))
    check_op(lambda x, y: tf.concat([x, y], axis=1), lambda x, y: np.concatenate([x, y], 1), a, b)
    check_op(lambda x, y: tf.concat([x, y], -1), lambda x, y: np.concatenate([x, y], -1), a, b)
    check_op(lambda x: tf.concat([x], 0), lambda x: x, a)


def test_concat_python_values_take_the_tensor_dtype():
    out = tf.concat([tf.constant([1.0]), [2, 3]], axis=0)
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0, 3.0])


def test_concat_errors():
    with pytest.raises(tf.InvalidArgumentError, match=r"values\[0\] is float32 and values\[1\] is int32"):
        tf.concat([tf.zeros((2,)), tf.constant([1, 2])], axis=0)
    with pytest.raises(tf.InvalidArgumentError, match=r"except along axis 0.*\(2, 3\).*\(2, 4\)"):
        tf.concat([tf.zeros((2, 3)), tf.zeros((2, 4))], axis=0)
    with pytest.raises(tf.InvalidArgumentError, match="can't concatenate scalars"):
        tf.concat([tf.constant(1.0), tf.constant(2.0)], axis=0)
    with pytest.raises(TypeError, match="takes a non-empty list of tensors"):
        tf.concat([], axis=0)


def test_stack(rng):
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(2, 3))
    for axis in (0, 1, 2, -1):
        check_op(lambda x, y, k=axis: tf.stack([x, y], axis=k),
                 lambda x, y, k=axis: np.stack([x, y], k), a, b)
    with pytest.raises(tf.InvalidArgumentError, match=r"values\[0\].shape = \(2,\) != values\[1\]"):
        tf.stack([tf.zeros(2), tf.zeros(3)])


def test_unstack_and_iteration(rng):
    x = rng.normal(size=(2, 3))
    parts = tf.unstack(tf.constant(x), axis=1)
    assert isinstance(parts, list) and len(parts) == 3
    for i, part in enumerate(parts):
        np.testing.assert_array_equal(part.numpy(), x[:, i])
    check_gradient(lambda t: tf.stack([p * (i + 1.0) for i, p in enumerate(tf.unstack(t, axis=1))]), x)
    rows = list(tf.constant(x))
    np.testing.assert_array_equal(rows[1].numpy(), x[1])
    with pytest.raises(tf.InvalidArgumentError, match="num=4 but the tensor of shape"):
        tf.unstack(tf.constant(x), num=4)


def test_split(rng):
    x = rng.normal(size=(4, 7))
    check_op(lambda t: tf.split(t, 2), lambda a: np.split(a, 2), x, grad=False)
    check_op(lambda t: tf.split(t, [2, -1, 1], axis=1), lambda a: np.split(a, [2, 6], axis=1), x, grad=False)
    check_op(lambda t: tf.split(t, tf.constant([3, 4]), axis=-1), lambda a: np.split(a, [3], axis=1), x,
             grad=False)
    scaled = lambda t: tf.concat([p * (i + 1.0) for i, p in enumerate(tf.split(t, [2, -1, 1], 1))], 1)  # noqa: E731
    check_gradient(scaled, x)
    with pytest.raises(tf.InvalidArgumentError, match=r"split_dim 1 \(size = 7\) and num_split 2"):
        tf.split(tf.constant(x), 2, axis=1)
    with pytest.raises(tf.InvalidArgumentError, match=r"must add up to the dimension being split \(7\)"):
        tf.split(tf.constant(x), [2, 2], axis=1)


def test_tile_and_reverse(rng):
    x = rng.normal(size=(2, 3))
    check_op(lambda t: tf.tile(t, [2, 1]), lambda a: np.tile(a, (2, 1)), x)
    check_op(lambda t: tf.reverse(t, [0]), lambda a: a[::-1], x)
    check_op(lambda t: tf.reverse(t, [-1, 0]), lambda a: a[::-1, ::-1], x)
    with pytest.raises(tf.InvalidArgumentError, match=r"multiples to be 2 non-negative ints"):
        tf.tile(tf.constant(x), [2])
    with pytest.raises(tf.InvalidArgumentError, match="lists a dimension twice"):
        tf.reverse(tf.constant(x), [0, -2])


def test_pad_modes(rng):
    x = rng.normal(size=(3, 4))
    pads = [[1, 2], [2, 0]]
    check_op(lambda t: tf.pad(t, pads), lambda a: np.pad(a, pads), x)
    check_op(lambda t: tf.pad(t, pads, constant_values=7.5),
             lambda a: np.pad(a, pads, constant_values=7.5), x)
    check_op(lambda t: tf.pad(t, pads, "REFLECT"), lambda a: np.pad(a, pads, mode="reflect"), x)
    check_op(lambda t: tf.pad(t, pads, "symmetric"), lambda a: np.pad(a, pads, mode="symmetric"), x)


def test_pad_errors():
    x = tf.zeros((2, 3))
    with pytest.raises(ValueError, match="mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC'"):
        tf.pad(x, [[0, 0], [0, 0]], mode="wrap")
    with pytest.raises(tf.InvalidArgumentError, match=r"REFLECT mode.*less than.*\(2, 0\)"):
        tf.pad(x, [[2, 0], [0, 0]], mode="REFLECT")
    with pytest.raises(tf.InvalidArgumentError, match=r"shape \(2, 2\)"):
        tf.pad(x, [[1, 1]])


# -- selection --------------------------------------------------------------------------

def test_gather(rng):
    x = rng.normal(size=(4, 3))
    idx = np.array([2, 0, 2])
    check_op(lambda t: tf.gather(t, idx), lambda a: a[idx], x)
    check_op(lambda t: tf.gather(t, [[1, 0], [2, 2]], axis=1), lambda a: a[:, [[1, 0], [2, 2]]], x)
    check_op(lambda t: tf.gather(t, tf.constant([0, 1], dtype=tf.int64), axis=-1), lambda a: a[:, [0, 1]], x)


def test_gather_batch_dims(rng):
    x = rng.normal(size=(3, 4, 2))
    idx = np.array([[0, 3], [1, 1], [2, 0]])
    want = np.stack([x[b][idx[b]] for b in range(3)])
    check_op(lambda t: tf.gather(t, idx, batch_dims=1), lambda a: want, x)
    want_axis2 = np.stack([x[b][:, [0, 1, 1][b]] for b in range(3)])
    check_op(lambda t: tf.gather(t, [0, 1, 1], axis=2, batch_dims=1), lambda a: want_axis2, x)


def test_gather_errors():
    params = tf.constant([1.0, 2.0, 3.0])
    with pytest.raises(tf.InvalidArgumentError, match=r"indices\[1\] = 5 is not in \[0, 3\)"):
        tf.gather(params, [0, 5])
    with pytest.raises(tf.InvalidArgumentError, match=r"indices\[0\] = -1 is not in \[0, 3\)"):
        tf.gather(params, [-1])
    with pytest.raises(TypeError, match="indices must be an integer tensor.*float32"):
        tf.gather(params, [0.0])
    with pytest.raises(tf.InvalidArgumentError, match="must share their first 1 dimensions"):
        tf.gather(tf.zeros((2, 3)), tf.zeros((3, 1), tf.int32), batch_dims=1)


def test_gather_traced_out_of_range_gives_zero():
    got = staged(lambda p, i: tf.gather(p, i), np.array([1.0, 2.0, 3.0]), np.array([2, 7, -1]))
    np.testing.assert_array_equal(got, [3.0, 0.0, 0.0])


def test_gather_nd(rng):
    x = rng.normal(size=(3, 4, 2))
    idx = np.array([[0, 1], [2, 3], [0, 1]])
    check_op(lambda t: tf.gather_nd(t, idx), lambda a: a[idx[:, 0], idx[:, 1]], x)
    check_op(lambda t: tf.gather_nd(t, [[1, 2, 0]]), lambda a: a[[1], [2], [0]], x)
    bidx = np.array([[1], [3], [0]])
    check_op(lambda t: tf.gather_nd(t, bidx, batch_dims=1), lambda a: a[np.arange(3), bidx[:, 0]], x)
    with pytest.raises(tf.InvalidArgumentError, match=r"indices\[1\] = 4 is not in \[0, 4\)"):
        tf.gather_nd(tf.constant(x), [[0, 0], [0, 4]])
    with pytest.raises(tf.InvalidArgumentError, match="index vector of length at most 3"):
        tf.gather_nd(tf.constant(x), [[0, 0, 0, 0]])
    with pytest.raises(tf.InvalidArgumentError, match="batch_dims=1 dimensions they share"):
        tf.gather_nd(tf.constant(x), [[0], [1]], batch_dims=1)


def test_boolean_mask(rng):
    x = rng.normal(size=(3, 4))
    row_mask = np.array([True, False, True])
    check_op(lambda t: tf.boolean_mask(t, row_mask), lambda a: a[row_mask], x)
    col_mask = np.array([False, True, True, False])
    check_op(lambda t: tf.boolean_mask(t, col_mask, axis=1), lambda a: a[:, col_mask], x)
    full = x > 0
    check_op(lambda t: tf.boolean_mask(t, full), lambda a: a[full], x)
    with pytest.raises(TypeError, match="concrete bool mask"):
        tf.boolean_mask(tf.constant(x), [1, 0, 1])
    with pytest.raises(tf.InvalidArgumentError, match=r"mask's shape \(2,\) must equal dimensions 0 to 0"):
        tf.boolean_mask(tf.constant(x), [True, False])


def test_slice_and_strided_slice(rng):
    x = rng.normal(size=(3, 4, 5))
    check_op(lambda t: tf.slice(t, [1, 0, 2], [2, -1, 2]), lambda a: a[1:3, :, 2:4], x)
    check_op(lambda t: tf.strided_slice(t, [0, 1], [3, 4], [2, 2]), lambda a: a[0:3:2, 1:4:2], x)
    check_op(lambda t: tf.strided_slice(t, [1, 0, 4], [2, 0, 0], [1, 1, -2], begin_mask=2, end_mask=2,
                                        shrink_axis_mask=1),
             lambda a: a[1, :, 4:0:-2], x)
    check_op(lambda t: tf.strided_slice(t, [0, 0], [1, 2], ellipsis_mask=1, new_axis_mask=0),
             lambda a: a[..., 0:2], x)
    with pytest.raises(tf.InvalidArgumentError, match=r"begin\[0\] in \[0, 3\] and size\[0\] in \[0, 1\]"):
        tf.slice(tf.constant(x), [2, 0, 0], [2, 1, 1])
    with pytest.raises(tf.InvalidArgumentError, match="one entry per dimension"):
        tf.slice(tf.constant(x), [0], [1])


def test_where_selects_with_broadcasting(rng):
    cond = rng.normal(size=(3, 1)) > 0
    x, y = rng.normal(size=(3, 4)), rng.normal(size=(4,))
    check_op(lambda a, b: tf.where(cond, a, b), lambda a, b: np.where(cond, a, b), x, y)
    assert tf.where([True, False], 1.0, 2.0).dtype == tf.float32


def test_where_with_condition_only_gives_int64_coordinates():
    cond = np.array([[True, False], [False, True], [True, True]])
    got = tf.where(cond)
    assert got.dtype == tf.int64
    np.testing.assert_array_equal(got.numpy(), np.argwhere(cond))
    np.testing.assert_array_equal(tf.where(tf.constant([0, 3, 0, 1])).numpy(), [[1], [3]])


def test_where_errors():
    with pytest.raises(ValueError, match="pass both x and y"):
        tf.where([True], x=[1.0])
    with pytest.raises(TypeError, match="condition must be a bool tensor.*int32"):
        tf.where([1, 0], [1, 2], [3, 4])
    with pytest.raises(tf.InvalidArgumentError, match="dtypes float32 and int32"):
        tf.where([True], tf.constant([1.0]), tf.constant([1]))
    with pytest.raises(tf.InvalidArgumentError, match=r"broadcast to one shape.*\(2,\), \(3,\)"):
        tf.where([True, False], tf.zeros(3), tf.ones(3))


def test_one_hot():
    idx = np.array([[0, 2], [1, 5]])
    check_op(lambda i: tf.one_hot(i, 3), lambda i: (i[..., None] == np.arange(3)).astype(np.float32),
             idx, grad=False)
    got = tf.one_hot([0, 2], 3, on_value=5, off_value=-1, axis=0)
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), [[5, -1], [-1, -1], [-1, 5]])
    assert tf.one_hot([1], 2, dtype=tf.float64).dtype == tf.float64
    check_gradient(lambda on: tf.one_hot([0, 1, 1], 2, on_value=on, off_value=0.5, dtype=tf.float64),
                   np.array(2.0))
    assert tf.one_hot([0], 2, on_value=1, off_value=0, dtype=tf.float32).dtype == tf.float32


def test_one_hot_errors():
    with pytest.raises(TypeError, match="indices must be an integer tensor"):
        tf.one_hot([0.0], 2)
    with pytest.raises(TypeError, match=r"on_value and off_value must have the dtype float32.*\['float64'\]"):
        tf.one_hot([0], 2, on_value=tf.constant(1.0, tf.float64), dtype=tf.float32)
    with pytest.raises(TypeError, match=r"must have the dtype float64.*\['float64', 'float32'\]"):
        tf.one_hot([0], 2, on_value=np.float64(1.0), off_value=0.0)
    with pytest.raises(tf.InvalidArgumentError, match="depth must be non-negative"):
        tf.one_hot([0], -1)


def test_shape_size_rank():
    x = tf.zeros((2, 3, 4))
    assert tf.shape(x).dtype == tf.int32
    np.testing.assert_array_equal(tf.shape(x).numpy(), [2, 3, 4])
    assert tf.shape(x, out_type=tf.int64).dtype == tf.int64
    assert int(tf.size(x)) == 24 and tf.size(x).dtype == tf.int32
    assert int(tf.rank(x)) == 3
    np.testing.assert_array_equal(tf.shape(tf.constant(["a", "b"])).numpy(), [2])
    with pytest.raises(TypeError, match="out_type must be companion.int32 or companion.int64"):
        tf.shape(x, out_type=tf.float32)


@pytest.mark.parametrize("fn", [
    lambda t: tf.gather_nd(t, [[0, 1], [2, 3]]),
    lambda t: tf.gather(t, [2, 0], axis=1),
    lambda t: tf.pad(t, [[1, 0], [0, 2]], "SYMMETRIC"),
    lambda t: tf.concat(tf.split(t, [1, -1], axis=1)[::-1], axis=1),
    lambda t: tf.stack(tf.unstack(t, axis=1)),
    lambda t: tf.where(t > 0, t, tf.zeros_like(t)),
    lambda t: tf.one_hot(tf.cast(t > 0, tf.int32), 2),
    lambda t: tf.slice(t, [1, 1], [-1, 2]),
])
def test_ops_give_the_same_values_when_staged(rng, fn):
    x = rng.normal(size=(3, 4))
    np.testing.assert_allclose(staged(fn, x), fn(tf.constant(x)).numpy())


def test_staged_ops_keep_static_arguments_static():
    x = np.arange(6.0)
    np.testing.assert_array_equal(staged(lambda t: tf.reshape(t, [2, 3]), x), x.reshape(2, 3))
    np.testing.assert_array_equal(staged(lambda t: tf.reshape(t, t.shape[::-1]), x), x)
    np.testing.assert_array_equal(staged(lambda t: tf.reshape(t, tf.shape(t)), x), x)
    with pytest.raises(TypeError, match="must be known when the function is traced"):
        staged(lambda t: tf.reshape(t, tf.cast(t[:2], tf.int32)), x)


@pytest.mark.parametrize("start, stop, dtype", [
    (0, 1, tf.float64), (0.0, 1.0, tf.float32), (np.int64(0), 2, tf.float64),
    (tf.constant(0, tf.int16), tf.constant(4, tf.int16), tf.float32), ([0, 1], [2, 3], tf.float64),
    (tf.constant(0.0, tf.float64), 1.0, tf.float64),
])
def test_linspace_dtype_follows_start_as_tf(start, stop, dtype):
    """TF 2.21: integer bounds give float64 (float32 for 16-bit ones), floats keep their dtype."""
    result = tf.linspace(start, stop, 3)
    assert result.dtype == dtype
    np.testing.assert_allclose(result.numpy(), np.linspace(np.asarray(start), np.asarray(stop), 3))


def test_linspace_converts_stop_to_start_s_dtype_as_tf():
    with pytest.raises(TypeError, match="Cannot convert 1.0 to a tensor of dtype int32"):
        tf.linspace(0, 1.0, 3)

"""The exception class companion raises is TensorFlow's in each situation (TF 2.21, CPU, as recorded)."""

import numpy as np
import pytest

import companion as tf

# Each case: what TF 2.21 raises eagerly, and what it raises for the same code inside tf.function
# (shape and dtype checks move to tracing there and become builtins). companion's error is an
# instance of both.
CASES = {
    "dtype_mismatch": (lambda: tf.constant(1) + tf.constant(1.0), tf.errors.InvalidArgumentError, TypeError),
    "matmul_dtypes": (lambda: tf.matmul(tf.ones((2, 2)), tf.ones((2, 2), tf.int32)),
                      tf.errors.InvalidArgumentError, TypeError),
    "python_float_with_int": (lambda: tf.constant(1) + 1.5, tf.errors.InvalidArgumentError, TypeError),
    "string_plus_number": (lambda: tf.constant("a") + tf.constant(1), tf.errors.InvalidArgumentError,
                           TypeError),
    "sqrt_of_int": (lambda: tf.sqrt(tf.constant(4)), tf.errors.InvalidArgumentError, TypeError),
    "reduce_mean_of_strings": (lambda: tf.reduce_mean(tf.constant(["a"])), tf.errors.InvalidArgumentError,
                               TypeError),
    "one_hot_float_indices": (lambda: tf.one_hot(tf.constant([1.0]), 3), tf.errors.InvalidArgumentError,
                              TypeError),
    "broadcast": (lambda: tf.constant([1, 2, 3]) + tf.constant([1, 2]), tf.errors.InvalidArgumentError,
                  ValueError),
    "reshape_size": (lambda: tf.reshape(tf.zeros((6,)), (4, 2)), tf.errors.InvalidArgumentError, ValueError),
    "matmul_shapes": (lambda: tf.matmul(tf.ones((2, 3)), tf.ones((2, 3))), tf.errors.InvalidArgumentError,
                      ValueError),
    "concat_shapes": (lambda: tf.concat([tf.ones((2, 3)), tf.ones((2, 2))], axis=0),
                      tf.errors.InvalidArgumentError, ValueError),
    "stack_shapes": (lambda: tf.stack([tf.ones((2,)), tf.ones((3,))]), tf.errors.InvalidArgumentError,
                     ValueError),
    "index_out_of_range": (lambda: tf.constant([1, 2, 3])[5], tf.errors.InvalidArgumentError, ValueError),
    "slice_column_out_of_range": (lambda: tf.constant([[1, 2], [3, 4]])[:, 5], tf.errors.InvalidArgumentError,
                                  ValueError),
    "reduce_bad_axis": (lambda: tf.reduce_sum(tf.ones((2, 3)), axis=2), tf.errors.InvalidArgumentError,
                        ValueError),
    # inside a function, AutoGraph stages tf.range as a loop range (checked when iterated): eager only
    "range_zero_delta": (lambda: tf.range(0, 5, 0), tf.errors.InvalidArgumentError, None),
    "negative_dimension": (lambda: tf.zeros((-1, 2)), tf.errors.InvalidArgumentError, ValueError),
    "inv_not_square": (lambda: tf.linalg.inv(tf.ones((2, 3))), tf.errors.InvalidArgumentError, ValueError),
    "cast_string_to_float": (lambda: tf.cast(tf.constant("a"), tf.float32), tf.errors.UnimplementedError,
                             tf.errors.UnimplementedError),
    "cast_int_to_string": (lambda: tf.cast(tf.constant(1), tf.string), tf.errors.UnimplementedError,
                           tf.errors.UnimplementedError),
    # TF checks these only at run time, inside tf.function too
    "gather_out_of_range": (lambda: tf.gather(tf.constant([1, 2, 3]), 5), tf.errors.InvalidArgumentError,
                            tf.errors.InvalidArgumentError),
    "gather_nd_out_of_range": (lambda: tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[5, 0]]),
                               tf.errors.InvalidArgumentError, tf.errors.InvalidArgumentError),
    # TF raises plain builtins for these in both modes
    "variable_assign_dtype": (lambda: tf.Variable(1.0).assign(tf.constant(1, tf.int32)), ValueError,
                              ValueError),
    "variable_assign_add_dtype": (lambda: tf.Variable(1.0).assign_add(tf.constant(1, tf.int32)), ValueError,
                                  ValueError),
    "variable_assign_shape": (lambda: tf.Variable([1.0, 2.0]).assign([1.0, 2.0, 3.0]), ValueError,
                              ValueError),
    "constant_bad_shape": (lambda: tf.constant([1, 2, 3], shape=(2, 2)), TypeError, TypeError),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_error_is_tfs_class(name):
    fn, eager, _ = CASES[name]
    with pytest.raises(eager):
        fn()


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_inside_function_is_tfs_class(name):
    fn, _, staged = CASES[name]
    if staged is None:
        pytest.skip("checked eagerly only (see the case's comment)")
    with pytest.raises(staged):
        tf.function(fn)()


def test_dtype_mismatch_prints_as_invalid_argument_error():
    # TF 2.21 eager: InvalidArgumentError; companion's is also a TypeError but keeps TF's name
    with pytest.raises(TypeError) as info:
        tf.constant(1) + tf.constant(1.0)
    assert type(info.value).__name__ == "InvalidArgumentError"
    assert "cast" in str(info.value)  # companion's explanation is kept


def test_variable_assign_dtype_is_plain_value_error():
    # TF 2.21: ValueError "Tensor conversion requested dtype float32 for Tensor with dtype int32"
    with pytest.raises(ValueError) as info:
        tf.Variable(1.0).assign(tf.constant(1, tf.int32))
    assert type(info.value) is ValueError


@pytest.mark.parametrize("convert", [float, int])
def test_float_and_int_of_a_non_scalar_are_type_errors(convert):
    # TF 2.21: TypeError "only integer scalar arrays can be converted to a scalar index" / similar
    with pytest.raises(TypeError):
        convert(tf.constant([1.0, 2.0]))


def test_bool_of_a_non_scalar_stays_value_error():
    with pytest.raises(ValueError):  # TF 2.21: ValueError (NumPy's ambiguous truth value)
        bool(tf.constant([True, False]))


@pytest.mark.parametrize("matrix", [[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]])
def test_inverting_a_singular_matrix_eagerly(matrix):
    # TF 2.21 (CPU): InvalidArgumentError "Input is not invertible."
    with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
        tf.linalg.inv(tf.constant(matrix))


def test_inverting_a_tiny_but_nonzero_pivot_works():
    # TF 2.21 gives [[1e30, 0], [0, 1]] for diag(1e-30, 1): only an exactly zero pivot is singular
    out = tf.linalg.inv(tf.constant([[1e-30, 0.0], [0.0, 1.0]], tf.float64)).numpy()
    np.testing.assert_allclose(out, [[1e30, 0.0], [0.0, 1.0]])


def test_in_range_indices_still_work():
    t = tf.constant([[1, 2], [3, 4]])
    assert int(t[-2, 1]) == 2
    np.testing.assert_array_equal(t[..., -1].numpy(), [2, 4])
    np.testing.assert_array_equal(t[None, 1].numpy(), [[3, 4]])


@pytest.mark.parametrize("make", [
    lambda: tf.data.Dataset.range(3).batch(0),
    lambda: tf.data.Dataset.range(3).padded_batch(0),
    lambda: tf.data.Dataset.range(3).shuffle(0),
])
def test_dataset_sizes_of_zero(make):
    # TF 2.21: InvalidArgumentError "Batch size must be greater than zero." / "buffer_size must be ..."
    with pytest.raises(tf.errors.InvalidArgumentError):
        list(make())


def test_dataset_errors_tf_raises_as_value_error():
    # TF 2.21: ValueError for both (found while building the dataset)
    with pytest.raises(ValueError):
        tf.data.Dataset.from_tensor_slices((tf.ones((3,)), tf.ones((4,))))
    with pytest.raises(ValueError):
        list(tf.data.Dataset.range(3).filter(lambda x: x))


def test_generator_of_the_wrong_shape():
    def gen():
        yield [1, 2, 3]

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((2,), tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: InvalidArgumentError from IteratorGetNext
        list(ds)


def test_iterator_past_its_end():
    it = iter(tf.data.Dataset.range(1))
    it.get_next()
    with pytest.raises(tf.errors.OutOfRangeError):  # TF 2.21: OutOfRangeError "End of sequence"
        it.get_next()
    with pytest.raises(StopIteration):
        next(it)


# The class name TF 2.21 shows (``type(e).__name__``) for the same mistake inside tf.function:
# shape checks are TF's shape inference there (ValueError), dtype checks its op definitions
# (TypeError), and checks of values stay InvalidArgumentError (TF runs them in the program).
TRACED_NAMES = {
    "reshape": (lambda: tf.reshape(tf.ones((4,)), (3,)), "ValueError"),
    "add_broadcast": (lambda: tf.ones((2, 3)) + tf.ones((4,)), "ValueError"),
    "squeeze": (lambda: tf.squeeze(tf.ones((2, 3)), 0), "ValueError"),
    "split": (lambda: tf.split(tf.ones((5,)), 2), "ValueError"),
    "split_sizes": (lambda: tf.split(tf.ones((5,)), [2, 2]), "ValueError"),
    "transpose": (lambda: tf.transpose(tf.ones((2, 3)), [0, 2]), "ValueError"),
    "tile": (lambda: tf.tile(tf.ones((2, 3)), [2]), "ValueError"),
    "expand_dims": (lambda: tf.expand_dims(tf.ones((2,)), 5), "ValueError"),
    "where": (lambda: tf.where(tf.constant([True, False]), tf.ones((3,)), tf.ones((3,))), "ValueError"),
    "broadcast_to": (lambda: tf.broadcast_to(tf.ones((3,)), (2, 4)), "ValueError"),
    "einsum": (lambda: tf.einsum("ij,jk->ik", tf.ones((2, 3)), tf.ones((4, 5))), "ValueError"),
    "ensure_shape": (lambda: tf.ensure_shape(tf.ones((2, 3)), (3, 3)), "ValueError"),
    "one_hot_negative_depth": (lambda: tf.one_hot([1], -2), "ValueError"),
    "fill_negative": (lambda: tf.fill([-1], 1.0), "ValueError"),
    "range_zero_delta": (lambda: tf.range(0, 5, 0), "ValueError"),
    "one_hot_float_indices": (lambda: tf.one_hot(tf.constant([1.5]), 3), "TypeError"),
    "reduce_mean_of_strings": (lambda: tf.reduce_mean(tf.constant(["a"])), "TypeError"),
    "concat_dtypes": (lambda: tf.concat([tf.ones((2,)), tf.ones((2,), tf.int32)], 0), "TypeError"),
    "gather_out_of_range": (lambda: tf.gather(tf.ones((3,)), 5), "InvalidArgumentError"),
    "slice_out_of_range": (lambda: tf.slice(tf.ones((3,)), [2], [4]), "InvalidArgumentError"),
    "scatter_out_of_range": (lambda: tf.tensor_scatter_nd_update(tf.zeros((3,)), [[7]], [1.0]),
                             "InvalidArgumentError"),
    "segment_ids_unsorted": (lambda: tf.math.segment_sum(tf.ones((3,)), [1, 0, 0]), "InvalidArgumentError"),
    "assert_equal": (lambda: tf.debugging.assert_equal(tf.constant(1), tf.constant(2)),
                     "InvalidArgumentError"),
    "check_numerics": (lambda: tf.debugging.check_numerics(tf.constant(np.nan), "m"), "InvalidArgumentError"),
    "to_number": (lambda: tf.strings.to_number("abc"), "InvalidArgumentError"),
}


@pytest.mark.parametrize("name", sorted(TRACED_NAMES))
def test_error_inside_function_shows_tfs_class_name(name):
    fn, shown = TRACED_NAMES[name]
    with pytest.raises(Exception) as info:
        tf.function(fn)()
    assert type(info.value).__name__ == shown
    with pytest.raises(tf.errors.InvalidArgumentError):  # companion's errors catch as the eager class too
        tf.function(fn)()


def test_concat_dtypes_eagerly_is_invalid_argument_error():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.concat([tf.ones((2,)), tf.ones((2,), tf.int32)], 0)
    assert type(info.value).__name__ == "InvalidArgumentError"

"""py_function and numpy_function, eagerly, in datasets and inside companion.function."""

import numpy as np
import pytest

import companion as tf
from companion._ops._py_function import numpy_function, py_function
from companion.data import Dataset


def test_py_function_single_and_list_outputs():
    assert float(py_function(lambda x: x * 2, [tf.constant(3.0)], tf.float32)) == 6.0
    a, b = py_function(lambda x: (x, x + 1), [1], [tf.int32, tf.int32])
    assert (int(a), int(b)) == (1, 2)


def test_py_function_receives_tensors_and_numpy_function_arrays():
    seen = []
    py_function(lambda x: seen.append(type(x)) or x, [tf.constant(1)], tf.int32)
    numpy_function(lambda x: seen.append(type(x)) or x, [tf.constant(1)], tf.int32)
    assert seen == [tf.Tensor, np.ndarray]


def test_py_function_is_differentiable_eagerly():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = py_function(lambda v: v * v, [x], tf.float32)
    assert float(tape.gradient(y, x)) == 6.0


def test_wrong_number_of_outputs():
    with pytest.raises(ValueError, match="Tout"):
        py_function(lambda x: (x, x), [1], [tf.int32])


def test_py_function_in_a_dataset_map():
    ds = Dataset.from_tensor_slices(["a", "bcd"]).map(
        lambda s: py_function(lambda t: len(t.numpy()), [s], tf.int64))
    assert [int(x) for x in ds] == [1, 3]


def _doubled(x):
    return py_function(lambda v: v * 2, [x], tf.TensorSpec([2], tf.float32))


def _unknown_shape(x):
    return py_function(lambda v: v * 2, [x], tf.float32)


def test_py_function_inside_a_compiled_function_with_static_shapes():
    assert tf.function(_doubled)(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]


def test_py_function_with_a_plain_dtype_runs_the_function_call_eagerly():
    # TF 2.21 (the tf.function guide): Tout=tf.float32 works in a function; XLA needs the shape, so
    # the call runs eagerly, with TF's values and one trace counted
    f = tf.function(_unknown_shape)
    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert f(tf.constant([3.0, 4.0])).numpy().tolist() == [6.0, 8.0]
    assert f.experimental_get_tracing_count() == 1


def test_py_function_without_shapes_has_no_compiled_concrete_function():
    with pytest.raises(TypeError, match="TensorSpec") as caught:
        tf.function(_unknown_shape).get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert isinstance(caught.value, tf.errors.OperatorNotAllowedInGraphError)


def test_numpy_function_gets_scalars_from_graphs_and_arrays_eagerly():
    # TF 2.21: eagerly a 0-d input arrives as a 0-d ndarray; from a graph (a function, a dataset
    # function) as a NumPy scalar, bytes for a string, so `b.upper()` works in Dataset.map
    kinds = []

    def record(x, s):
        kinds.append((type(x).__name__, type(s).__name__))
        return np.int32(0)

    tf.numpy_function(record, [tf.constant(3), tf.constant(2.0)], tf.int32)
    tf.function(lambda x: tf.numpy_function(record, [x, x * 2.0], tf.TensorSpec([], tf.int32)))(
        tf.constant(3.0))
    assert kinds == [("ndarray", "ndarray"), ("float32", "float32")]
    ds = tf.data.Dataset.from_tensor_slices(["ab", "cd"]).map(
        lambda s: tf.numpy_function(lambda b: b.upper(), [s], tf.string))
    assert list(ds.as_numpy_iterator()) == [b"AB", b"CD"]

"""TensorArray eagerly, inside function, in AutoGraph and while_loop loops, and under GradientTape.

Expected values and error classes are TF 2.21's (recorded with tensorflow-cpu 2.21) or NumPy's.
"""

import numpy as np
import pytest

import companion as tf


def test_eager_writes_share_the_list_and_unwritten_elements_read_as_zeros():
    ta = tf.TensorArray(tf.float32, size=3)
    ta.write(0, 1.0)  # not assigned: eagerly TF still keeps the write
    ta = ta.write(1, 2.0)
    # TF 2.21 gives [1. 2. 0.], size 3, element_shape ()
    np.testing.assert_array_equal(ta.stack().numpy(), [1.0, 2.0, 0.0])
    assert int(ta.size()) == 3 and ta.element_shape == ()
    assert ta.dtype == tf.float32 and ta.dynamic_size is False


def test_eager_errors_have_tensorflows_classes():
    ta = tf.TensorArray(tf.float32, size=3)
    with pytest.raises(tf.errors.OutOfRangeError, match="read from index 5 but array size is: 3"):
        ta.read(5)
    with pytest.raises(tf.errors.OutOfRangeError, match="not resizeable and size is: 3"):
        ta.write(5, 1.0)
    with pytest.raises(tf.errors.OutOfRangeError, match="negative indices"):
        ta.write(-1, 1.0)
    ta = ta.write(0, 1.0)
    with pytest.raises(ValueError, match=r"Incompatible shape for value \(\(2,\)\), expected \(\(\)\)"):
        ta.write(1, [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="trying to write dtype int32"):
        ta.write(1, tf.constant(1))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.TensorArray(tf.int32, size=1).write(0, 1.5)
    with pytest.raises(ValueError, match="Cannot unstack 3 tensors into a TensorArray of static size 2"):
        tf.TensorArray(tf.float32, size=2).unstack(tf.zeros((3, 2)))


def test_clear_after_read():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
    assert float(ta.read(0)) == 1.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="twice"):
        ta.read(0)
    np.testing.assert_array_equal(ta.stack().numpy(), [0.0, 2.0])  # TF 2.21: the cleared element is 0
    keep = tf.TensorArray(tf.float32, size=1, clear_after_read=False).write(0, 3.0)
    assert float(keep.read(0)) == float(keep.read(0)) == 3.0


def test_dynamic_size_unstack_scatter_split_gather_concat():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(3, 1.0)
    assert int(ta.size()) == 4  # TF 2.21: 4, stack [0 0 0 1]
    np.testing.assert_array_equal(ta.stack().numpy(), [0, 0, 0, 1])
    rows = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    ta = tf.TensorArray(tf.float32, size=3, clear_after_read=False).unstack(rows)
    np.testing.assert_array_equal(ta.read(1).numpy(), rows[1])
    np.testing.assert_array_equal(ta.gather([2, 0]).numpy(), rows[[2, 0]])
    np.testing.assert_array_equal(ta.concat().numpy(), rows.reshape(-1))
    ta = tf.TensorArray(tf.float32, size=3).scatter([2, 0], tf.constant([[1.0, 1.0], [2.0, 2.0]]))
    np.testing.assert_array_equal(ta.stack().numpy(), [[2, 2], [0, 0], [1, 1]])
    ta = tf.TensorArray(tf.float32, size=3).split(tf.constant([1.0, 2, 3, 4, 5, 6]), lengths=[1, 2, 3])
    np.testing.assert_array_equal(ta.concat().numpy(), [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(ta.read(2).numpy(), [4, 5, 6])
    empty = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=(2,))
    assert empty.stack().shape == (0, 2)  # TF 2.21: shape (0, 2)


def test_inside_function_writes_are_functional():
    @tf.function
    def unassigned():
        ta = tf.TensorArray(tf.float32, size=2)
        ta.write(0, 1.0)  # TF 2.21 in a function: the write is lost, [0. 0.]
        return ta.stack()

    np.testing.assert_array_equal(unassigned().numpy(), [0.0, 0.0])

    @tf.function
    def twice():
        ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
        return ta.read(0) + ta.read(0)  # TF 2.21: 2.0 (no clear_after_read in graphs)

    assert float(twice()) == 2.0

    @tf.function
    def mismatch():
        return tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, [1.0, 2.0]).stack()

    with pytest.raises(ValueError, match=r"Inconsistent shapes: saw \(2,\) but expected \(\)"):
        mismatch()


def test_rnn_accumulate_pattern_in_an_autograph_loop():
    @tf.function
    def rnn(x):
        ta = tf.TensorArray(tf.float32, size=x.shape[0])
        h = tf.zeros(x.shape[1:])
        for i in tf.range(x.shape[0]):
            h = h * 0.5 + x[i]
            ta = ta.write(i, h)
        return ta.stack(), ta.size()

    stacked, size = rnn(tf.ones((3, 2)))
    # TF 2.21 gives [[1, 1], [1.5, 1.5], [1.75, 1.75]] and 3
    np.testing.assert_allclose(stacked.numpy(), [[1, 1], [1.5, 1.5], [1.75, 1.75]])
    assert int(size) == 3


def test_dynamic_size_in_a_loop_bounded_by_a_python_int_or_a_tensor(capsys):
    @tf.function
    def square_all(n):
        print("tracing")
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i * i, tf.float32))
        return ta.stack()

    np.testing.assert_array_equal(square_all(4).numpy(), [0, 1, 4, 9])  # TF 2.21: [0. 1. 4. 9.]
    capsys.readouterr()
    # a tensor bound: TF grows the array at run time; XLA needs a static capacity, so companion runs
    # this signature eagerly, with TF's results, its Python print shown once (at the failed trace)
    np.testing.assert_array_equal(square_all(tf.constant(4)).numpy(), [0, 1, 4, 9])
    np.testing.assert_array_equal(square_all(tf.constant(2)).numpy(), [0, 1])
    assert capsys.readouterr().out == "tracing\n"
    with pytest.raises(ValueError, match="dynamic_size=True.*known while tracing"):
        square_all.get_concrete_function(tf.TensorSpec([], tf.int32))  # a graph cannot be had


def test_a_size_given_by_an_argument_runs_with_tfs_results():
    @tf.function
    def ramp(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i, tf.float32))
        return ta.stack()

    np.testing.assert_array_equal(ramp(tf.constant(4)).numpy(), [0, 1, 2, 3])  # TF 2.21: [0. 1. 2. 3.]
    np.testing.assert_array_equal(ramp(tf.constant(1)).numpy(), [0])


def test_while_loop_with_a_tensor_array_eager_and_staged():
    def run():
        _, ta = tf.while_loop(lambda i, ta: i < 3,
                              lambda i, ta: (i + 1, ta.write(i, tf.cast(i, tf.float32) * 2.0)),
                              (0, tf.TensorArray(tf.float32, size=3)))
        return ta.stack()

    np.testing.assert_array_equal(run().numpy(), [0, 2, 4])  # TF 2.21: [0. 2. 4.]
    np.testing.assert_array_equal(tf.function(run)().numpy(), [0, 2, 4])


def test_python_print_in_the_loop_body_runs_once_per_trace(capsys):
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3)  # element shape found by a quiet probe trace
        for i in tf.range(3):
            print("tracing the body")
            ta = ta.write(i, x[i])
        return ta.stack()

    f(tf.constant([1.0, 2.0, 3.0]))
    assert capsys.readouterr().out.count("tracing the body") == 1  # TF 2.21 prints it once


def _loss_of_squares(x):
    ta = tf.TensorArray(tf.float32, size=3)
    for i in tf.range(3):
        ta = ta.write(i, x[i] * x[i])
    return tf.reduce_sum(ta.stack())


def test_gradients_eager_and_around_a_function():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = _loss_of_squares(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2, 4, 6])  # d/dx sum(x^2) = 2x
    staged = tf.function(_loss_of_squares)
    with tf.GradientTape() as tape:
        y = staged(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2, 4, 6])


def test_gradient_through_reads_at_traced_indices():
    x = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=3).unstack(x * x)
        total = tf.constant(0.0)
        for i in tf.range(3):
            total += ta.read(i) * tf.cast(i + 1, tf.float32)
        return total

    with tf.GradientTape() as tape:
        y = f()
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2 * 1 * 1, 2 * 2 * 2, 2 * 3 * 3])


def test_a_static_size_inside_a_function_prints_as_tfs_graph_constant():
    """TF 2.21 prints ``Tensor("Const:0", shape=(), dtype=int32)``."""
    import companion as tf_

    shown = []

    @tf_.function
    def f(n):
        ta = tf_.TensorArray(tf_.float32, size=3, element_shape=[2]).unstack(tf_.ones([3, 2]))
        shown.extend([str(ta.size()), str(ta.size() + n)])
        return ta.size()

    assert int(f(tf_.constant(2))) == 3
    assert shown == ['Tensor("Const:0", shape=(), dtype=int32)', 'Tensor("add:0", shape=(), dtype=int32)']

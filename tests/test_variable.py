"""Variable: creation, assignment, slicing, names, reprs and the shape= error."""

import numpy as np
import pytest

import companion as tf


def test_assignments_return_the_variable_and_update_it():
    v = tf.Variable([1.0, 2.0])
    r = v.assign([3.0, 4.0])  # TF: an _UnreadVariable, v under another name
    assert r is not v and isinstance(r, tf.Variable) and type(r).__name__ == "_UnreadVariable"
    assert r.name == "UnreadVariable"
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    np.testing.assert_allclose(v.numpy(), [3.5, 4.5])
    np.testing.assert_allclose((v.assign_add([1.0, 1.0]) * 2).numpy(), [9.0, 11.0])


def test_an_assignment_returns_the_variable_named_unread_variable():
    v = tf.Variable(1.0)
    r = v.assign(2.0)
    # TF 2.21 prints <tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>
    assert repr(r) == "<companion.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>"
    assert str(v.assign_add(1.0)).endswith("numpy=3.0>") and v.assign_sub(0.5).name == "UnreadVariable"
    assert v.assign(3.0, read_value=False) is None and v.assign_add(1.0, read_value=False) is None
    assert float(v.assign(1.0) + 1) == 2.0
    v.assign(6.0)
    assert float(r) == 6.0  # it reads the Variable's current value
    r.assign_add(1.0)  # and writes the Variable
    assert float(v) == 7.0 and v.name == "Variable:0"
    w = tf.Variable([1, 2], name="w")
    assert w.assign([5, 6]).assign([7, 8])._unread_of is w and w.numpy().tolist() == [7, 8]
    assert w[0].assign(9).name == "UnreadVariable" and w.numpy().tolist() == [9, 8]


def test_a_tape_sees_the_variable_through_what_assign_returned():
    v = tf.Variable(1.0, name="v")
    with tf.GradientTape() as tape:
        r = v.assign(2.0)
        y = r * 3
    # TF 2.21: 3.0 with respect to either, and the tape watched v:0
    assert float(tape.gradient(y, r)) == 3.0
    assert [x.name for x in tape.watched_variables()] == ["v:0"]
    with tf.GradientTape() as tape:
        y = v.assign(2.0) * 3
    assert float(tape.gradient(y, v)) == 3.0


def test_assign_inside_a_function_returns_the_new_value():
    v = tf.Variable(1.0)

    @tf.function
    def step():
        return v.assign(7.0) * 2

    assert float(step()) == 14.0 and float(v) == 7.0


def test_a_keras_weights_assignment_returns_the_new_value_as_a_tensor():
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 1))
    r = layer.bias.assign([1.0, 2.0])  # Keras 3: the value, a tensor
    assert type(r) is tf.Tensor and r.numpy().tolist() == [1.0, 2.0]
    assert layer.bias.assign_add([1.0, 2.0]).numpy().tolist() == [2.0, 4.0]


def test_variable_behaves_as_a_value_in_ops():
    v = tf.Variable(3.0)
    assert float(v + 1.0) == 4.0 and float(2.0 * v) == 6.0 and float(v ** 2) == 9.0
    assert float(tf.square(v)) == 9.0
    assert isinstance(v.read_value(), tf.Tensor) and float(v.value()) == 3.0


def test_eager_names_as_tf_gives_them():
    # TF 2.21 eager: Variable:0 Variable:0 v:0 v:0 (no uniquifying counter outside graphs)
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    assert (a.name, b.name) == ("Variable:0", "Variable:0")
    assert tf.Variable(1.0, name="v").name == tf.Variable(2.0, name="v").name == "v:0"
    assert tf.Variable(1.0, name="a/b").name == "a/b:0"


def test_names_follow_name_scopes():
    # TF 2.21: s/v:0 and s/t/Variable:0
    with tf.name_scope("s"):
        assert tf.Variable(1.0, name="v").name == "s/v:0"
        with tf.name_scope("t"):
            assert tf.Variable(1.0).name == "s/t/Variable:0"
    assert tf.Variable(1.0).name == "Variable:0"


def test_a_variable_created_in_a_function_has_an_eager_name():
    made = []

    @tf.function
    def f():
        if not made:
            made.append(tf.Variable(1.0))
        return made[0].read_value()

    f()
    assert made[0].name == "Variable:0"  # TF 2.21: Variable:0 (lifted out of the graph)


def test_repr():
    v = tf.Variable(1.0, name="v")
    assert repr(v) == "<companion.Variable 'v:0' shape=() dtype=float32, numpy=1.0>"
    w = tf.Variable([1, 2], name="w")
    assert repr(w) == "<companion.Variable 'w:0' shape=(2,) dtype=int32, numpy=array([1, 2], dtype=int32)>"


def test_shape_argument_mismatch_is_a_value_error():
    tf_text = r"^In this `tf.Variable` creation, the initial value's shape \(\(4,\)\) is not compatible"
    with pytest.raises(ValueError, match=tf_text + r".*\(\(2, 2\)\)"):
        tf.Variable([1, 2, 3, 4], shape=(2, 2))
    v = tf.Variable([1.0], shape=[None])
    v.assign([1.0, 2.0, 3.0])
    assert v.shape.as_list() == [None] and v.numpy().shape == (3,)


def test_assign_checks_dtype_and_shape():
    v = tf.Variable([1.0, 2.0], name="x")
    with pytest.raises(ValueError, match="cannot assign a value of shape \\(3,\\) to the variable 'x:0'"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="dtype float32.*int32") as info:  # TF 2.21: a plain ValueError
        v.assign(tf.constant([1, 2]))
    assert type(info.value) is ValueError


def test_slice_assignment_writes_through():
    v = tf.Variable([[1, 2], [3, 4]])
    v[0].assign([10, 20])
    v[1, 1].assign_add(6)
    v[:, 0].assign_sub([1, 1])
    np.testing.assert_array_equal(v.numpy(), [[9, 20], [2, 10]])
    np.testing.assert_array_equal(v[1].numpy(), [2, 10])


def test_dtype_and_callable_initial_value():
    v = tf.Variable(lambda: tf.zeros([2]), dtype=tf.float64)
    assert v.dtype == tf.float64 and v.shape == (2,)
    assert tf.Variable(np.arange(3)).dtype == tf.int64
    assert not tf.Variable(1.0, trainable=False).trainable


def test_missing_initial_value():
    with pytest.raises(ValueError, match="needs an initial_value"):
        tf.Variable()


def test_variables_are_unhashable_but_have_refs():
    v = tf.Variable(1.0)
    with pytest.raises(TypeError, match="ref"):
        {v}
    assert v.ref() == v.ref() and v.ref().deref() is v


def test_empty_list_with_a_dtype_and_numpy_backed_initial_value():
    assert tf.constant([], dtype=tf.int32).shape == (0,)
    v = tf.Variable(tf.Tensor(np.ones(3, np.float32)))
    v[0].assign(5.0)
    np.testing.assert_array_equal(v.numpy(), [5.0, 1.0, 1.0])


@pytest.mark.parametrize("statement, advice", [("v += 1.0", "assign_add"), ("v -= 1.0", "assign_sub"),
                                               ("v *= 2.0", r"var.assign\(var \* value\)"),
                                               ("v /= 2.0", r"var.assign\(var / value\)")])
def test_in_place_operators_refuse_as_tf(statement, advice):
    v = tf.Variable(1.0)
    with pytest.raises(RuntimeError, match=advice):  # TF 2.21's RuntimeError and advice
        exec(statement, {"v": v})
    assert float(v) == 1.0


def test_a_keras_weight_rebinds_on_in_place_operators_as_keras():
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 3))
    kernel = layer.kernel
    kernel += 1.0  # Keras 3 (TF 2.21): an EagerTensor, the weight unchanged
    assert not hasattr(kernel, "assign") and np.allclose(kernel.numpy() - 1.0, layer.kernel.numpy())


def test_update_shapes_must_equal_the_variables_as_tf():
    """TF 2.21: assign_add/assign_sub do not broadcast (InvalidArgumentError eagerly, ValueError in a
    function); a Variable has no len()."""
    import companion as tf_

    u = tf_.Variable(tf_.ones([2, 2]))
    s = tf_.Variable(1.0)
    for update in (lambda: u.assign_add(1.0), lambda: u.assign_sub([1.0, 1.0]), lambda: s.assign_add([1.0])):
        with pytest.raises(tf_.errors.InvalidArgumentError, match="shapes must be equal"):
            update()
    with pytest.raises(ValueError):
        tf_.function(lambda: s.assign_add([1.0]))()
    u.assign_add(tf_.ones([2, 2]))
    assert u.numpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    with pytest.raises(TypeError, match="has no len"):
        len(u)
    assert [float(x) for x in tf_.Variable([1.0, 2.0])] == [1.0, 2.0]

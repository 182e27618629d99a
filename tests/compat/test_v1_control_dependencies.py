"""control_dependencies, group and no_op in a TF1 graph: recorded control inputs a Session runs first."""

import pytest

import companion as tf

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def _eager_afterwards():
    yield
    v1.enable_eager_execution()
    v1.reset_default_graph()


def _assigns():
    w = tf.Variable(10, name="w")
    return w, w.assign(2 * w, name="double")


def test_an_op_built_under_control_dependencies_runs_them_first():
    with tf.Graph().as_default():
        w, double = _assigns()
        with tf.control_dependencies([double]):
            add_five = w.assign_add(5)
        independent = w.assign_add(5)
        assert add_five.op.control_inputs == [double.op] and independent.op.control_inputs == []
        # a named assign keeps TF's op type
        assert (double.op.name, double.op.type, add_five.op.type) == ("double", "AssignVariableOp",
                                                                      "AssignAddVariableOp")
        with v1.Session() as sess:
            sess.run(w.initializer)
            assert sess.run(add_five) == 25 and sess.run(w) == 25  # (10 * 2) + 5, as TF
            sess.run(w.initializer)
            assert sess.run(independent) == 15  # no dependency: the doubling is not run


def test_group_is_a_noop_running_its_inputs_and_none_clears_outer_blocks():
    with tf.Graph().as_default():
        w, double = _assigns()
        with tf.control_dependencies([double]):
            add_five = w.assign_add(5)
            with tf.control_dependencies(None):
                unrelated = tf.constant(1.0) + 1.0
        both = tf.group(double, add_five, name="both")
        assert repr(both) == "<companion.Operation 'both' type=NoOp>"
        assert unrelated.op.control_inputs == []
        assert repr(tf.no_op()) == "<companion.Operation 'NoOp' type=NoOp>"
        with v1.Session() as sess:
            sess.run(w.initializer)
            assert sess.run(both) is None and sess.run(w) == 25
    assert tf.group(tf.constant(1)) is None and tf.no_op() is None  # eager: as TF


def test_a_control_input_must_be_an_operation_or_a_tensor():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="Control input must be an Operation"):
            with tf.control_dependencies([3]):
                pass

"""companion.compat.v1 against TensorFlow 2.21's tf.compat.v1 (values recorded from real TF)."""

import collections

import numpy as np
import pytest

import companion as tf

v1 = tf.compat.v1


@pytest.fixture(autouse=True)
def _eager_afterwards():
    yield
    v1.enable_eager_execution()
    v1.reset_default_graph()


def test_graph_tensors_have_no_value_and_unique_names():
    g = tf.Graph()
    with g.as_default():
        assert not tf.executing_eagerly() and v1.get_default_graph() is g
        a = tf.constant(2.0)
        c, d = a + 3.0, a + 3.0
        # TF 2.21: <tf.Tensor 'Const:0' ...> <tf.Tensor 'add:0' ...> <tf.Tensor 'add_1:0' ...>
        assert repr(a) == "<companion.Tensor 'Const:0' shape=() dtype=float32>"
        assert repr(c) == "<companion.Tensor 'add:0' shape=() dtype=float32>"
        assert d.name == "add_1:0" and c.op.type == "AddV2" and c.graph is g
        assert str(c) == 'Tensor("add:0", shape=(), dtype=float32)'  # TF's, word for word
        x = v1.placeholder(tf.float32, shape=[None, 3])
        assert repr(x) == "<companion.Tensor 'Placeholder:0' shape=(None, 3) dtype=float32>"
        assert repr(tf.reduce_sum(x * 2, axis=1)) == "<companion.Tensor 'Sum:0' shape=(None,) dtype=float32>"
        assert tf.matmul(x, tf.ones([3, 2])).shape.as_list() == [None, 2]
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
            bool(x)
        with pytest.raises(AttributeError):
            x.numpy()
    assert tf.executing_eagerly()
    assert isinstance(tf.constant(1.0) + 1.0, tf.Tensor)  # eager again after the block


def test_session_runs_nested_fetches_with_feeds():
    with tf.Graph().as_default():
        c = tf.constant(2.0) + tf.constant(3.0)
        x = v1.placeholder(tf.float32, shape=[None, 3])
        y = x * 2
        total = tf.reduce_sum(y, axis=1)
        pair = collections.namedtuple("Pair", "first second")
        with v1.Session() as sess:
            five = sess.run(c)
            assert type(five) is np.float32 and five == 5.0
            out = sess.run({"a": [c, (y, total)], "b": c}, feed_dict={x: [[1.0, 2.0, 3.0]]})
            # TF 2.21: {'a': [5.0, ([[2., 4., 6.]], [12.])], 'b': 5.0}
            assert out["b"] == 5.0 and out["a"][0] == 5.0
            np.testing.assert_array_equal(out["a"][1][0], [[2.0, 4.0, 6.0]])
            np.testing.assert_array_equal(out["a"][1][1], [12.0])
            both = sess.run(pair(c, total), feed_dict={x: np.ones((2, 3))})
            assert type(both).__name__ == "Pair" and both.first == 5.0
            np.testing.assert_array_equal(both.second, [6.0, 6.0])
        with pytest.raises(RuntimeError, match="closed Session"):
            sess.run(c)


def test_feed_errors_are_tensorflows():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 3])
        y = x + 1.0
        with v1.Session() as sess:
            # TF 2.21: InvalidArgumentError "You must feed a value for placeholder tensor 'Placeholder'
            # with dtype float and shape [?,3]"
            unfed = "'Placeholder' with dtype float and shape"
            with pytest.raises(tf.errors.InvalidArgumentError, match=unfed):
                sess.run(y)
            # TF 2.21: ValueError "Cannot feed value of shape (1, 2) for Tensor Placeholder:0, which has
            # shape (None, 3)"
            wrong = r"Cannot feed value of shape \(1, 2\) for Tensor Placeholder:0"
            with pytest.raises(ValueError, match=wrong):
                sess.run(y, feed_dict={x: [[1.0, 2.0]]})


def test_uninitialised_variable_and_assign_not_run():
    with tf.Graph().as_default():
        w = tf.Variable(10, name="w")
        grow = w.assign(100)
        assert repr(w) == "<companion.Variable 'w:0' shape=() dtype=int32>"
        assert repr(grow) == "<companion.Variable 'AssignVariableOp' shape=() dtype=int32>"
        assert (w.initializer.name, w.initializer.type) == ("w/Assign", "AssignVariableOp")
        with v1.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError, match="w"):
                sess.run(w)
            sess.run(w.initializer)
            assert sess.run(w) == 10  # built, not run: TF 2.21 gives 10
            assert sess.run(grow) == 100 and sess.run(w) == 100
        with v1.Session() as sess:  # values live in a session: a new one starts uninitialised
            sess.run(v1.global_variables_initializer())
            assert sess.run(w) == 10
            # TF 2.21: [20, 25], then 25 (two assigns run together, no dependency between them)
            assert sess.run([w.assign(2 * w), w.assign_add(5)]) == [20, 25]
            assert sess.run(w) == 25


def test_variable_scope_reuse_regularization_loss_counts_once():
    def dense(x):
        with v1.variable_scope("shared", reuse=v1.AUTO_REUSE):
            w = v1.get_variable("w", shape=[2, 2], initializer=v1.constant_initializer(0.2),
                                regularizer=lambda t: tf.reduce_sum(tf.square(t)))
            b = v1.get_variable("b", shape=[2], initializer=v1.zeros_initializer())
        return tf.matmul(x, w) + b

    with tf.Graph().as_default():
        x_a = v1.placeholder(tf.float32, shape=[None, 2])
        x_b = v1.placeholder(tf.float32, shape=[None, 2])
        out_a, out_b = dense(x_a), dense(x_b)
        reg = v1.losses.get_regularization_loss()
        assert reg.name == "total_regularization_loss:0"
        assert [v.name for v in v1.global_variables()] == ["shared/w:0", "shared/b:0"]
        assert len(v1.trainable_variables()) == 2
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            a, b, r = sess.run([out_a, out_b, reg], feed_dict={x_a: [[1.0, 2.0]], x_b: [[3, 4], [5, 6]]})
        # TF 2.21: [[0.6, 0.6]], [[1.4, 1.4], [2.2, 2.2]], 0.16000001
        np.testing.assert_allclose(a, [[0.6, 0.6]], rtol=1e-6)
        np.testing.assert_allclose(b, [[1.4, 1.4], [2.2, 2.2]], rtol=1e-6)
        assert r == pytest.approx(0.16, rel=1e-6)
        with pytest.raises(ValueError, match="already exists, disallowed"), v1.variable_scope("shared"):
            v1.get_variable("w", shape=[2, 2])
        with pytest.raises(ValueError, match="does not exist"), v1.variable_scope("shared", reuse=True):
            v1.get_variable("missing", shape=[1])


def test_minimize_returns_an_op_and_reports_the_loss_before_the_step():
    xs = np.array([[0.0], [1.0], [2.0], [3.0]], dtype=np.float32)
    ys = 3.0 * xs + 2.0
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 1])
        y = v1.placeholder(tf.float32, shape=[None, 1])
        w = tf.Variable([[0.0]])
        b = tf.Variable([0.0])
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        step = v1.train.GradientDescentOptimizer(0.05).minimize(loss)
        assert (step.name, step.type) == ("GradientDescent", "NoOp")
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            losses = [sess.run([step, loss], feed_dict={x: xs, y: ys})[1] for _ in range(5)]
            final = sess.run([w, b])
    # TF 2.21: 53.5 18.0337 6.1104 2.1 0.7494, w 2.985, b 1.4815
    np.testing.assert_allclose(losses, [53.5, 18.0337, 6.1104, 2.1, 0.7494], atol=1e-4)
    np.testing.assert_allclose(final[0], [[2.985]], atol=1e-4)
    np.testing.assert_allclose(final[1], [1.4815], atol=1e-4)


def test_the_program_is_compiled_once_per_signature():
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, shape=[None])
        y = x * 2.0
        with v1.Session() as sess:
            for n in (2, 2, 3, 3):
                sess.run(y, feed_dict={x: np.ones(n)})
    assert len(g._programs) == 2  # one per fed shape


def test_disable_eager_execution_and_interactive_session():
    v1.disable_eager_execution()
    assert not tf.executing_eagerly() and not v1.executing_eagerly_outside_functions()
    w = tf.Variable(3.0)
    loss = tf.square(w)
    sess = v1.InteractiveSession()
    v1.global_variables_initializer().run()
    assert loss.eval() == 9.0
    sess.close()
    with pytest.raises(ValueError, match="No default session"):
        loss.eval()
    v1.reset_default_graph()
    assert v1.get_default_graph().get_operations() == []
    v1.enable_eager_execution()
    assert tf.executing_eagerly() and v1.global_variables() == []

"""Lecture lab L1 (TF1 graphs and sessions): public checks in the kernel, and the grader from the CLI."""

import numpy as np
import pytest

import companion as tf
from graders import l1
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_lab_variants

SOLUTION = ROOT / "solutions" / "lectures" / "L1_tf1_graphs_and_sessions.ipynb"
LAST_CHECK = 'check("squared_error_tf2"'
v1 = tf.compat.v1


def squared_error_graph(x_value, y_value, w_init, b_init):
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=[None, w_init.shape[0]])
        y = v1.placeholder(tf.float32, shape=[None, 1])
        w, b = tf.Variable(w_init), tf.Variable(b_init)
        prediction = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.square(prediction - y))
        init = v1.global_variables_initializer()
        with v1.Session() as sess:
            sess.run(init)
            values = sess.run([prediction, loss], feed_dict={x: x_value, y: y_value})
    return graph, *values


def squared_error_tf2(w_init, b_init):
    w, b = tf.Variable(w_init), tf.Variable(b_init)

    @tf.function
    def compute(x, y):
        prediction = tf.matmul(x, w) + b
        return prediction, tf.reduce_mean(tf.square(prediction - y))

    return w, b, compute


def test_the_reference_graph_agrees_with_numpy():
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(5, 3)).astype("float32"), rng.normal(size=(5, 1)).astype("float32")
    w, b = rng.normal(size=(3, 1)).astype("float32"), rng.normal(size=1).astype("float32")
    _, prediction, loss = squared_error_graph(x, y, w, b)
    np.testing.assert_allclose(prediction, x @ w + b, rtol=1e-5)
    np.testing.assert_allclose(loss, np.mean((x @ w + b - y) ** 2), rtol=1e-5)
    _, _, compute = squared_error_tf2(w, b)
    np.testing.assert_allclose(compute(tf.constant(x), tf.constant(y))[1].numpy(), loss, rtol=1e-5)


@pytest.mark.parametrize("exercise, obj", [("squared_error_graph", squared_error_graph),
                                           ("squared_error_tf2", squared_error_tf2)])
def test_correct_code_passes_the_public_checks(exercise, obj, capsys):
    l1.check(exercise, obj)
    assert capsys.readouterr().out.endswith("public tests passed\n")


def _constants_not_placeholders(x_value, y_value, w_init, b_init):
    graph = tf.Graph()
    with graph.as_default():
        prediction = tf.matmul(tf.constant(x_value), tf.Variable(w_init)) + tf.Variable(b_init)
        loss = tf.reduce_mean(tf.square(prediction - y_value))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run([prediction, loss])
    return graph, *values


def _not_initialized(x_value, y_value, w_init, b_init):
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=[None, w_init.shape[0]])
        y = v1.placeholder(tf.float32, shape=[None, 1])
        prediction = tf.matmul(x, tf.Variable(w_init)) + tf.Variable(b_init)
        loss = tf.reduce_mean(tf.square(prediction - y))
        with v1.Session() as sess:
            values = sess.run([prediction, loss], feed_dict={x: x_value, y: y_value})
    return graph, *values


def _sum_not_mean(x_value, y_value, w_init, b_init):
    graph, prediction, _ = squared_error_graph(x_value, y_value, w_init, b_init)
    return graph, prediction, np.sum((prediction - y_value) ** 2)


def _symbolic_results(x_value, y_value, w_init, b_init):
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=[None, w_init.shape[0]])
        y = v1.placeholder(tf.float32, shape=[None, 1])
        prediction = tf.matmul(x, tf.Variable(w_init)) + tf.Variable(b_init)
        return graph, prediction, tf.reduce_mean(tf.square(prediction - y))


def _plain_python(w_init, b_init):
    w, b = tf.Variable(w_init), tf.Variable(b_init)

    def compute(x, y):
        prediction = tf.matmul(x, w) + b
        return prediction, tf.reduce_mean(tf.square(prediction - y))

    return w, b, compute


def _baked_weights(w_init, b_init):
    w, b = tf.Variable(w_init), tf.Variable(b_init)

    @tf.function
    def compute(x, y):
        prediction = tf.matmul(x, w_init) + b_init
        return prediction, tf.reduce_mean(tf.square(prediction - y))

    return w, b, compute


@pytest.mark.parametrize("exercise, obj, words", [
    ("squared_error_graph", _constants_not_placeholders, "placeholders"),
    ("squared_error_graph", _not_initialized, "FailedPreconditionError"),
    ("squared_error_graph", _sum_not_mean, "not a sum"),
    ("squared_error_graph", _symbolic_results, "sess.run gives back"),
    ("squared_error_tf2", _plain_python, "tf.function"),
    ("squared_error_tf2", _baked_weights, "read their current values"),
])
def test_each_mistake_fails_its_public_check_with_a_hint_for_it(exercise, obj, words):
    with pytest.raises(AssertionError) as failure:
        l1.check(exercise, obj)
    message = str(failure.value)
    assert words in message and "\nHint: " in message, message


MISTAKES = {
    "not_initialized": {"squared_error_graph": """
        # GRADED FUNCTION: squared_error_graph
        def squared_error_graph(x_value, y_value, w_init, b_init):
            graph = tf.Graph()
            with graph.as_default():
                x = v1.placeholder(tf.float32, shape=[None, w_init.shape[0]])
                y = v1.placeholder(tf.float32, shape=[None, 1])
                prediction = tf.matmul(x, tf.Variable(w_init)) + tf.Variable(b_init)
                loss = tf.reduce_mean(tf.square(prediction - y))
                with v1.Session() as sess:
                    feeds = {x: x_value, y: y_value}
                    return graph, sess.run(prediction, feeds), sess.run(loss, feeds)
        """},
    "baked_weights": {"squared_error_tf2": """
        # GRADED FUNCTION: squared_error_tf2
        def squared_error_tf2(w_init, b_init):
            w = tf.Variable(w_init)
            b = tf.Variable(b_init)

            def squared_error(x, y):
                prediction = tf.matmul(x, w_init) + b_init
                return prediction, tf.reduce_mean(tf.square(prediction - y))

            return w, b, tf.function(squared_error)
        """},
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The solution (cut after its last check), the lab and each mistake, graded in one CLI run."""
    return grade_lab_variants("l1", SOLUTION, ROOT / "labs" / "lectures" / SOLUTION.name, MISTAKES,
                              tmp_path_factory.mktemp("l1"), stop_after=LAST_CHECK)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "l1")


@pytest.mark.slow
@pytest.mark.notebook
@pytest.mark.parametrize("name, exercise, other", [
    ("not_initialized", "squared_error_graph", "squared_error_tf2"),
    ("baked_weights", "squared_error_tf2", "squared_error_graph"),
])
def test_a_mistake_earns_nothing_for_its_exercise(graded, name, exercise, other):
    scores = graded(name)
    assert scores[exercise] == 0
    assert scores[other] == 1.0

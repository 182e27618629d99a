"""A function's traced program as people read it: named Variable reads and prints, no dead reads."""

import numpy as np

import companion as tf


def _staged():
    weights = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="weights")

    @tf.function
    def step(x):
        weights.read_value()  # a read nothing uses
        weights.assign_add(x)
        tf.print(weights)
        return weights * 2.0

    return weights, step


def test_reads_and_prints_are_named_and_unused_reads_left_out():
    _, step = _staged()
    graph = step.get_concrete_function(tf.ones([2, 2])).graph
    text = graph.as_text()
    assert "read_variable" in text and "companion.print" in text
    assert "optimization_barrier" not in text and "debug_callback" not in text and "0x" not in text
    reads = [eqn for eqn in graph.jaxpr.jaxpr.eqns if eqn.primitive.name == "optimization_barrier"]
    assert text.count("read_variable") == 1 < len(reads)  # the trace read it more often than it used it


def test_the_html_page_names_the_constants():
    weights, step = _staged()
    concrete = step.get_concrete_function(tf.ones([2, 2]))
    page = concrete._repr_html_()
    assert "step(arg0: float32[2, 2])" in page and "<pre>" in page
    assert "Variable &#x27;weights:0&#x27; (float32[2, 2])" in page and "constant 2.0 (float32[])" in page
    np.testing.assert_array_equal(concrete(tf.ones([2, 2])).numpy(), 2.0 * weights.numpy())


def test_shared_subprograms_stay_shared():
    @tf.function
    def f(x):
        return x % 3 + (x + 1) % 3

    text = f.get_concrete_function(tf.constant(4)).graph.as_text()
    assert text.startswith("let ") and "jaxpr=remainder" in text


def test_the_text_has_no_terminal_colours(monkeypatch):
    from jax._src import pretty_printer

    monkeypatch.setattr(pretty_printer, "CAN_USE_COLOR", True)  # what JAX decides in a Jupyter kernel
    _, step = _staged()
    assert "\x1b[" not in step.get_concrete_function(tf.ones([2, 2])).graph.as_text()


def test_ops_with_tfs_gradient_rules_show_as_the_op_also_inside_loops():
    """tanh, sqrt and abs are custom_jvp calls (TF's gradient kernels); the text shows the op itself."""

    @tf.function
    def f(x):
        y = tf.tanh(x) + tf.abs(x)
        return tf.while_loop(lambda y: tf.reduce_sum(y) < 20.0, lambda y: (tf.sqrt(y) * 3.0,), (y,))

    graph = f.get_concrete_function(tf.TensorSpec([3])).graph
    text = graph.as_text()
    assert "custom_jvp_call" not in text
    assert "= tanh " in text and "= abs " in text and "= sqrt " in text
    assert graph.operations()[:3] == ["tanh", "abs", "add"]
    want = np.tanh([1.0, 2.0, 3.0]) + [1.0, 2.0, 3.0]
    while want.sum() < 20.0:
        want = np.sqrt(want) * 3.0
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0, 3.0]))[0].numpy(), want, rtol=1e-5)

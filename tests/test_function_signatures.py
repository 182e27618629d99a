"""`function`'s tracing rules, checked against TensorFlow 2.21's trace counts and signatures.

Every expected count, shape and printed line below is what TF 2.21 (CPU) gives for the same
program (recorded from /work/tfenv): signatures with ``None`` dimensions trace once,
``reduce_retracing`` generalises, Python arguments are compared by value and bound to the
function's parameters.
"""

import contextlib
import io

import numpy as np
import pytest

import companion as tf


def traced_prints(fn, *calls):
    """Runs each ``(args, kwargs)`` call; returns what the traces printed, one line each."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for args, kwargs in calls:
            fn(*args, **kwargs)
    return out.getvalue().splitlines()


def test_input_signature_with_none_traces_once_for_every_length():
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def total(x):
        print("trace", x.shape)
        return tf.reduce_sum(x)

    assert total.experimental_get_tracing_count() == 0  # TF 2.21: traced on the first call
    lines = traced_prints(total, ((tf.constant([1.0, 2.0]),), {}), ((tf.ones(3),), {}),
                          ((tf.ones(10),), {}), ((), {"x": tf.ones(4)}), (([1.0, 2.0],), {}))
    assert lines == ["trace (None,)"]  # TF 2.21 prints this once
    assert total.experimental_get_tracing_count() == 1
    assert float(total(tf.ones(7))) == 7.0
    concrete = total.get_concrete_function()
    assert concrete.inputs[0].shape.as_list() == [None]
    assert str(concrete.structured_input_signature) == (
        "((TensorSpec(shape=(None,), dtype=companion.float32, name='x'),), {})")  # TF: dtype=tf.float32
    assert total.pretty_printed_concrete_signatures() == (  # TF 2.21 (its dtype=tf.float32)
        "Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None,), dtype=companion.float32, name=None)\n"
        "Output Type:\n  TensorSpec(shape=(), dtype=companion.float32, name=None)\nCaptures:\n  None")
    with pytest.raises(TypeError):  # TF 2.21: TypeError for a rank-2 or an int32 argument
        total(tf.constant([[1.0]]))
    with pytest.raises(TypeError):
        total(tf.constant([1, 2]))


def test_two_none_signatures_broadcast_check_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
    def add(a, b):
        return a + b

    np.testing.assert_array_equal(add(tf.ones(2), tf.ones(2)).numpy(), [2.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: InvalidArgumentError, [2] vs. [3]
        add(tf.ones(2), tf.ones(3))
    names = [spec.name for spec in add.get_concrete_function().structured_input_signature[0]]
    assert names == ["a", "b"]


def test_get_concrete_function_with_none_dimensions():
    @tf.function
    def square(x):
        print("trace", x.shape)
        return x * x

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        concrete = square.get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
        np.testing.assert_array_equal(concrete(tf.ones((3, 2))).numpy(), np.ones((3, 2)))
        assert concrete(tf.ones((1, 2))).shape == (1, 2)
        assert square(tf.ones((4, 2))).shape == (4, 2)  # TF 2.21: dispatched to the (None, 2) trace
        assert square.experimental_get_tracing_count() == 1
        square(tf.ones((4, 3)))
    assert out.getvalue().splitlines() == ["trace (None, 2)", "trace (4, 3)"]  # TF 2.21's prints
    assert square.experimental_get_tracing_count() == 2
    assert concrete.outputs[0].shape.as_list() == [None, 2]  # TF 2.21: Identity:0 shape=(None, 2)
    assert str(concrete.structured_outputs) == 'Tensor("Identity:0", shape=(None, 2), dtype=float32)'  # as TF
    spec = concrete.structured_input_signature[0][0]
    assert (spec.shape.as_list(), spec.dtype, spec.name) == ([None, 2], tf.float32, "x")
    text = square.pretty_printed_concrete_signatures().split("\n\n")
    assert [block.splitlines()[1] for block in text] == [  # each input, as TF 2.21 writes it
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None, 2), dtype=companion.float32, name=None)",
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(4, 3), dtype=companion.float32, name=None)"]


def test_a_returned_input_of_a_none_dim_signature_is_an_output():
    @tf.function
    def parts(x):
        return {"a": x * 2, "b": (x, x + 1)}

    concrete = parts.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    # TF 2.21: Identity, Identity_1 (the input itself), Identity_2, each shape=(None, 3)
    assert [o.name for o in concrete.outputs] == ["Identity:0", "Identity_1:0", "Identity_2:0"]
    assert concrete.output_shapes == {"a": tf.TensorShape([None, 3]),
                                      "b": (tf.TensorShape([None, 3]), tf.TensorShape([None, 3]))}
    assert concrete(tf.ones([2, 3]))["b"][0].shape == (2, 3)


def test_gradient_through_a_shape_generic_function():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x * x)

    for n in (2, 5):
        x = tf.constant(np.arange(n, dtype=np.float32))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), 2 * np.arange(n))  # d/dx sum(x^2) = 2x
    assert f.experimental_get_tracing_count() == 1


def test_shape_generic_function_with_variables():
    v = tf.Variable(0.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def accumulate(x):
        v.assign_add(tf.reduce_sum(x))
        return v.read_value()

    assert float(accumulate(tf.ones(2))) == 2.0
    assert float(accumulate(tf.ones(3))) == 5.0
    assert v.numpy() == 5.0 and accumulate.experimental_get_tracing_count() == 1  # TF 2.21: 2.0, 5.0, 1


def test_reduce_retracing_generalises_after_a_second_shape():
    @tf.function(reduce_retracing=True)
    def f(x):
        print("trace f", x.shape)
        return tf.reduce_sum(x)

    calls = [((tf.ones(n),), {}) for n in range(1, 6)]
    assert traced_prints(f, *calls) == ["trace f (1,)", "trace f (None,)"]
    assert f.experimental_get_tracing_count() == 2  # TF 2.21: 2 (5 without reduce_retracing)
    shapes = [(1,), (2, 2), (3, 3), (3, 3, 3)]
    calls = [((tf.ones(s),), {}) for s in shapes] + [((tf.ones(n, tf.int32),), {}) for n in (2, 4)]
    lines = traced_prints(f, *calls)
    # TF 2.21: a new rank relaxes to an unknown shape; a new dtype starts over
    assert lines == ["trace f <unknown>", "trace f (2,)", "trace f (None,)"]
    assert f.experimental_get_tracing_count() == 5
    assert float(f(tf.ones((2, 3, 4)))) == 24.0


def test_without_reduce_retracing_each_shape_traces():
    @tf.function
    def g(x):
        return tf.reduce_sum(x)

    for n in range(1, 6):
        g(tf.ones(n))
    assert g.experimental_get_tracing_count() == 5  # TF 2.21: 5


def test_python_arguments_equal_under_eq_share_a_trace():
    @tf.function
    def f(x):
        return x * 2

    counts = []
    for value in [1, 2, 1, 1.0, True, 2.0, False, 0, 0.0, 1.5]:
        f(value)
        counts.append(f.experimental_get_tracing_count())
    assert counts == [1, 2, 2, 2, 2, 2, 3, 3, 3, 4]  # TF 2.21's counts after each call
    f(tf.constant(1))
    f(tf.constant(2))
    assert f.experimental_get_tracing_count() == 5  # a tensor is not the Python number 1


def test_keyword_and_default_arguments_bind_to_the_parameters():
    @tf.function
    def layer(x, training=False):
        print("trace training =", training)
        return x * 0.5 if training else x

    x = tf.constant([2.0, 4.0])
    calls = [((x,), {}), ((x, False), {}), ((x,), {"training": False}), ((x, True), {}),
             ((x,), {"training": True}), ((), {"x": x, "training": True}), ((x, 0), {}), ((x, 1), {})]
    assert traced_prints(layer, *calls) == ["trace training = False", "trace training = True"]
    assert layer.experimental_get_tracing_count() == 2  # TF 2.21: 2
    np.testing.assert_array_equal(layer(x, training=True).numpy(), [1.0, 2.0])
    with pytest.raises(TypeError, match="layer"):
        layer(x, True, True)


def test_keyword_arguments_are_ordered_by_name():
    @tf.function
    def h(x, *args, **kwargs):
        print("trace h", args, kwargs)
        return x

    x = tf.constant(1.0)
    calls = [((x,), {}), ((x, 1), {}), ((x,), {"a": 1}), ((x,), {"a": 1.0}), ((x,), {"b": 2, "a": 1}),
             ((x,), {"a": 1, "b": 2})]
    assert traced_prints(h, *calls) == [  # TF 2.21's prints: 4 traces, keywords sorted
        "trace h () {}", "trace h (1,) {}", "trace h () {'a': 1}", "trace h () {'a': 1, 'b': 2}"]


def test_methods_bind_without_self():
    class Scaler(tf.Module):
        @tf.function
        def __call__(self, x, scale=2.0):
            return x * scale

    s = Scaler()
    s(tf.constant(1.0))
    s(tf.constant(1.0), 2.0)
    s(tf.constant(1.0), scale=2)
    assert s.__call__.experimental_get_tracing_count() == 1  # TF 2.21: 1


def test_a_cached_binding_equals_inspect_bind_with_defaults():
    import inspect

    from companion._staging._function import _binding_plan

    def f(a, b=2, *, c=3, d=4):
        return a

    def g(x, training=False, mask=None):
        return x

    calls = [(f, (1,), {}), (f, (1, 5), {"d": 7}), (f, (), {"a": 1, "c": 9}), (g, (1,), {"training": True}),
             (g, (1, True), {}), (g, (1,), {"mask": 0, "training": False})]
    for fn, args, kwargs in calls:
        signature = inspect.signature(fn)
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        expected = (bound.args, dict(sorted(bound.kwargs.items())))
        assert _binding_plan(signature, (len(args), tuple(kwargs)))(args, kwargs) == expected
    assert _binding_plan(inspect.signature(lambda *xs: 0), (2, ())) is None


def test_a_concrete_function_checks_its_arguments_as_tf():
    @tf.function
    def f(x):
        return x * 2

    concrete = f.get_concrete_function(tf.TensorSpec([None], tf.int32))
    assert concrete([1, 2]).numpy().tolist() == [2, 4]  # TF 2.21: Python values convert
    assert concrete(tf.constant([[1]])).numpy().tolist() == [[2]]  # and shapes are not checked
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input #0\(zero-based\) was expected to be a "
                                                             "int32 tensor but is a float tensor"):
        concrete(tf.constant([1.0]))
    with pytest.raises(TypeError, match="too many positional arguments"):
        concrete(tf.constant([1]), tf.constant([1]))


def test_a_concrete_function_prints_as_tf():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, pair, flag=True, *, k=2):
        return x + v, {"s": pair[0], "n": None}

    concrete = f.get_concrete_function(tf.constant(1.0), (tf.constant(1), tf.constant([1.0, 2.0])), k=3)
    spec = "TensorSpec(shape={}, dtype=companion.{}, name=None)"
    scalar, integer = spec.format("()", "float32"), spec.format("()", "int32")
    pair = spec.format("(2,)", "float32")
    # TF 2.21 prints these lines (with dtype=tf.float32 and its own capture id)
    assert str(concrete).splitlines() == [
        "ConcreteFunction Input Parameters:",
        f"  x (POSITIONAL_OR_KEYWORD): {scalar}",
        f"  pair (POSITIONAL_OR_KEYWORD): Tuple[{integer}, {pair}]",
        "  flag (POSITIONAL_OR_KEYWORD): Literal[True]",
        "  k (KEYWORD_ONLY): Literal[3]",
        "Output Type:",
        f"  Tuple[{scalar}, Dict[['s', {integer}], ['n', Literal[None]]]]",
        "Captures:",
        f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)"]


def test_outputs_of_an_unknown_rank_signature_have_unknown_shape():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x + 1, tf.shape(x)

    for shape in ([1], [2], [2, 2], [3, 2]):  # the third call relaxes to TensorSpec(shape=<unknown>)
        f(tf.ones(shape))
    block = f.pretty_printed_concrete_signatures().split("\n\n")[-1].splitlines()
    assert block[1] == ("  x (POSITIONAL_OR_KEYWORD): "
                        "TensorSpec(shape=<unknown>, dtype=companion.float32, name=None)")
    # TF 2.21: x + 1 has an unknown shape, tf.shape(x) a vector of unknown length
    assert block[3] == ("  Tuple[TensorSpec(shape=<unknown>, dtype=companion.float32, name=None), "
                        "TensorSpec(shape=(None,), dtype=companion.int32, name=None)]")


def test_parameters_before_star_args_are_positional_only_and_the_short_form_is_pythons():
    @tf.function
    def f(x, y=2, *args):
        return x

    @tf.function
    def h(x, **kw):
        return x

    f(1)
    lines = f.pretty_printed_concrete_signatures().splitlines()
    assert lines[1:3] == ["  x (POSITIONAL_ONLY): Literal[1]", "  y (POSITIONAL_ONLY): Literal[2]"]  # TF 2.21
    concrete = h.get_concrete_function(1, z=2)
    assert concrete.pretty_printed_signature().splitlines()[1] == "  x (POSITIONAL_OR_KEYWORD): Literal[1]"
    # TF 2.21: verbose=False is the repr's one line, Python's signature text (``*`` before keyword-only)
    assert concrete.pretty_printed_signature(verbose=False) == (
        "(x: Literal[1], *, z: Literal[2]) -> TensorSpec(shape=(), dtype=companion.int32, name=None)")
    assert repr(concrete).startswith("<ConcreteFunction (x: Literal[1], *, z: Literal[2]) -> ")

"""The error class TensorFlow shows by name (``type(e).__name__``) for conversion, gradient-source,
traced-value and leaked-tensor mistakes, eagerly and inside `function` (TF 2.21, CPU, as run).

companion keeps its own messages; where TF's class differs between modes, or from the class
companion raised before, the error also subclasses the other one (catchable both ways).
"""

import numpy as np
import pytest

import companion as tf


def _raised(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.value


@pytest.mark.parametrize("value", [{"a": 1}, object(), [1, "a"]], ids=["dict", "object", "mixed"])
def test_unconvertible_values_are_value_errors_that_also_catch_as_type_errors(value):
    # TF 2.21: constant({'a': 1}), convert_to_tensor(object()), constant([1, 'a']) raise ValueError
    # eagerly and TypeError inside tf.function
    for fn in (lambda: tf.constant(value), lambda: tf.convert_to_tensor(value)):
        error = _raised(fn)
        assert type(error).__name__ == "ValueError"
        assert isinstance(error, ValueError) and isinstance(error, TypeError)
    assert isinstance(_raised(tf.function(lambda: tf.convert_to_tensor(value))), TypeError)


def test_dtype_mismatch_is_a_type_error_while_tracing_and_invalid_argument_eagerly():
    # TF 2.21: int32 + float32 is InvalidArgumentError eagerly, TypeError inside tf.function
    eager = _raised(lambda: tf.constant(1) + tf.constant(1.0))
    assert type(eager).__name__ == "InvalidArgumentError" and isinstance(eager, TypeError)

    @tf.function
    def staged(n):
        x = 0
        for i in tf.range(n):
            x = x + tf.cast(i, tf.float32)
        return x

    error = _raised(lambda: staged(tf.constant(3)))
    assert type(error).__name__ == "TypeError"
    assert isinstance(error, tf.errors.InvalidArgumentError)


@pytest.mark.parametrize("source,name", [(3.0, "AttributeError"), ([3.0], "AttributeError"),
                                         (np.ones(2), "AttributeError"), (None, "TypeError"),
                                         ("a", "TypeError")])
def test_gradient_sources_that_are_not_tensors(source, name):
    # TF 2.21: tape.gradient(y, 3.0) -> AttributeError (eagerly and in tf.function); None or a
    # string -> TypeError. companion's errors are also ValueErrors (its class before).
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = x * 2
    error = _raised(lambda: tape.gradient(y, source))
    assert type(error).__name__ == name and isinstance(error, ValueError)
    assert "Received" in str(error)


def test_gradient_source_error_inside_function():
    x = tf.Variable(1.0)

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = x * 2
        return tape.gradient(y, 3.0)

    assert isinstance(_raised(f), AttributeError)


def test_numpy_of_a_traced_tensor_is_an_attribute_error():
    # TF 2.21 inside tf.function: x.numpy() AttributeError, np.asarray(x) and Variable.numpy()
    # NotImplementedError, bool(x) OperatorNotAllowedInGraphError (a TypeError)
    v = tf.Variable(1.0)
    cases = {"AttributeError": lambda x: x.numpy(), "NotImplementedError": lambda x: np.asarray(x),
             "OperatorNotAllowedInGraphError": lambda x: bool(x)}
    for name, body in cases.items():
        error = _raised(lambda body=body: tf.function(body, autograph=False)(tf.constant(1)))
        assert type(error).__name__ == name
        assert isinstance(error, tf.errors.OperatorNotAllowedInGraphError)  # companion's class before
    assert isinstance(_raised(lambda: tf.function(cases["OperatorNotAllowedInGraphError"])(tf.constant(1))),
                      TypeError)
    error = _raised(tf.function(lambda: v.numpy()))
    assert type(error).__name__ == "NotImplementedError"
    assert tf.function(lambda x: x * 2)(tf.constant(2)).numpy() == 4  # eager numpy() untouched


def test_a_tensor_leaked_out_of_a_staged_loop_is_inaccessible():
    # TF 2.21: InaccessibleTensorError (a ValueError) when the function is traced
    @tf.function
    def f(n):
        leaked = []
        for i in tf.range(n):
            leaked.append(i * 2)
        return leaked[0]

    error = _raised(lambda: f(tf.constant(3)))
    assert type(error).__name__ == "InaccessibleTensorError"
    assert isinstance(error, tf.errors.InaccessibleTensorError) and isinstance(error, ValueError)
    assert "TensorArray" in str(error) and "loop variable" in str(error)

    @tf.function
    def g(n):
        leaked = []
        for i in tf.range(n):
            leaked.append(i * 2)
        return leaked[0] + 1

    assert isinstance(_raised(lambda: g(tf.constant(3))), tf.errors.InaccessibleTensorError)

    @tf.function
    def fixed(n):  # the fix the message names: a TensorArray (of a size known while tracing)
        values = tf.TensorArray(tf.int32, size=3)
        for i in tf.range(n):
            values = values.write(i, i * 2)
        return values.stack()

    np.testing.assert_array_equal(fixed(tf.constant(3)).numpy(), [0, 2, 4])


def test_a_tensor_kept_from_an_ended_function_call_is_out_of_scope():
    # TF 2.21: TypeError "<tf.Tensor 'mul:0' ...> is out of scope and cannot be used here" for an op
    # or an assignment after the call, and inside another function
    leaked = []

    @tf.function
    def f(x):
        y = x * 2
        leaked.append(y)
        return y

    f(tf.constant(1.0))
    kept = leaked[0]
    v = tf.Variable(0.0)
    for use in (lambda: kept + 1, lambda: tf.reduce_sum(kept), lambda: v.assign(kept)):
        error = _raised(use)
        assert type(error) is TypeError and "is out of scope and cannot be used here" in str(error)
    assert float(v) == 0.0  # the assignment stored nothing
    error = _raised(lambda: tf.function(lambda: leaked[0] + 1)())
    assert type(error) is TypeError and "out of scope" in str(error)
    assert kept.shape == () and kept.dtype == tf.float32  # static facts stay readable, as in TF

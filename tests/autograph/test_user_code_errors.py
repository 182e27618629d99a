"""An error escaping a traced function reads as TF's "in user code:" error.

Oracle: TF 2.21 on the same programs (probes run under TF and companion): ``str(error)`` lists the
user's frames that led to the error (converted functions marked ``*``), innermost last, then the
original ``Class: message``; the class is kept for builtins that take a message and for TF's op
errors, other classes become AutoGraph's ``StagingError`` (an ``IndexError`` in a dataset function).
"""

import inspect

import pytest

import companion as tf


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def helper(x):
    if x.shape[0] > 100:
        return x
    raise ValueError("custom msg")


@tf.function
def calls_helper(x):
    y = x * 2
    return helper(y)


def test_a_raise_in_a_called_function_names_both_frames():
    with pytest.raises(ValueError) as error:
        calls_helper(tf.constant([1]))
    assert type(error.value) is ValueError
    line = _line(calls_helper.python_function, "return helper")
    assert str(error.value) == (
        "in user code:\n\n"
        f'    File "{__file__}", line {line}, in calls_helper  *\n'
        "        return helper(y)\n"
        f'    File "{__file__}", line {_line(helper, "raise ValueError")}, in helper  *\n'
        '        raise ValueError("custom msg")\n\n'
        "    ValueError: custom msg\n")


@tf.function
def reshapes(x):
    return tf.reshape(x, (3,))


def test_an_op_error_keeps_its_traced_class_and_names_the_users_line():
    with pytest.raises(ValueError) as error:
        reshapes(tf.ones((4,)))
    assert type(error.value).__name__ == "ValueError"  # TF's shape inference error while tracing
    text = str(error.value)
    assert text.startswith(
        "in user code:\n\n"
        f'    File "{__file__}", line {_line(reshapes.python_function, "tf.reshape")}, in reshapes  *\n'
        "        return tf.reshape(x, (3,))\n\n    ValueError: ")
    assert "companion/" not in text  # companion's own frames are left out, as TF leaves out its own


def test_a_dataset_function_error_of_another_class_is_a_staging_error():
    with pytest.raises(Exception) as error:
        tf.data.Dataset.range(3).map(lambda x: helper(x))
    assert type(error.value).__name__ == "StagingError"
    assert str(error.value).endswith(
        f'    File "{__file__}", line {_line(helper, "x.shape[0]")}, in helper  *\n'
        "        if x.shape[0] > 100:\n\n    IndexError: tuple index out of range\n")


def test_eager_errors_and_unconverted_functions_are_left_alone():
    with pytest.raises(ValueError) as error:
        helper(tf.constant([1]))
    assert str(error.value) == "custom msg"
    with pytest.raises(ValueError) as error:
        tf.function(helper, autograph=False)(tf.constant([1]))
    assert str(error.value) == "custom msg"

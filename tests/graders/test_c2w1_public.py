"""Public checks of the Week 1 assignment: pass right answers, explain wrong ones."""

import ast
from pathlib import Path

import numpy as np
import pytest

import companion as tf
from graders import c2w1


def _gradient_tape(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = 3 * x**3 - 2 * x**2 + x
        z = tf.reduce_sum(y)
    return t.gradient(z, x)


CORRECT = {
    "tf_constant": tf.constant,
    "tf_square": tf.square,
    "tf_reshape": tf.reshape,
    "tf_cast": tf.cast,
    "tf_multiply": tf.multiply,
    "tf_add": tf.add,
    "tf_gradient_tape": _gradient_tape,
}


def _other_dtype(result):
    return tf.cast(result, tf.float32 if result.dtype == tf.float64 else tf.float64)


# kind of mistake -> (wrap a correct function into a wrong one, words the failure message must contain)
MISTAKES = {
    "numpy result": (lambda right: lambda *a: right(*a).numpy(), "it returned a numpy."),
    "variable result": (lambda right: lambda *a: tf.Variable(right(*a)),
                        "it returned a companion.ResourceVariable"),
    "other dtype": (lambda right: lambda *a: _other_dtype(right(*a)), "wrong dtype"),
    "extra axis": (lambda right: lambda *a: tf.expand_dims(right(*a), 0), "wrong shape"),
    "off by one": (lambda right: lambda *a: right(*a) + tf.ones_like(right(*a)), "wrong values"),
    "placeholder left": (lambda right: lambda *a: None, "it returned None"),
}


def test_exercises_are_the_graded_functions_of_the_assignment():
    assert set(c2w1.EXERCISES) == set(CORRECT)


@pytest.mark.parametrize("exercise", sorted(CORRECT))
def test_a_correct_function_passes_with_one_line(exercise, capsys):
    c2w1.check(exercise, CORRECT[exercise])
    assert capsys.readouterr().out == f"{exercise}: all 3 public tests passed\n"


def test_the_gradient_check_knows_the_documented_value():
    with pytest.raises(AssertionError) as failure:
        c2w1.check("tf_gradient_tape", lambda x: tf.zeros_like(x))
    assert "tf_gradient_tape(tf.constant(2.0))" in str(failure.value)
    assert "dtype float32, shape (), value 29." in str(failure.value)


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
@pytest.mark.parametrize("exercise", sorted(CORRECT))
def test_a_wrong_function_fails_saying_what_and_how_to_fix_it(exercise, mistake):
    wrap, words = MISTAKES[mistake]
    with pytest.raises(AssertionError) as failure:
        c2w1.check(exercise, wrap(CORRECT[exercise]))
    message = str(failure.value)
    assert message.startswith(f"{exercise}: public test 1 of 3 failed: {words}")
    for part in (f"call:     {exercise}(", "expected: companion.Tensor, dtype ", "got:      ", "Hint: "):
        assert part in message


def test_the_message_shows_type_dtype_shape_and_value_of_both_sides():
    with pytest.raises(AssertionError) as failure:
        c2w1.check("tf_square", lambda a: tf.cast(tf.square(a), tf.float32))
    assert str(failure.value) == (
        "tf_square: public test 1 of 3 failed: wrong dtype float32 (expected int64).\n"
        "  call:     tf_square(np.arange(1, 10))\n"
        "  expected: companion.Tensor, dtype int64, shape (9,), value [ 1,  4,  9, 16, 25, 36, 49, 64, 81]\n"
        "  got:      companion.Tensor, dtype float32, shape (9,), value "
        "[ 1.,  4.,  9., 16., 25., 36., 49., 64., 81.]\n"
        "Hint: Squaring keeps the dtype of the input: don't cast.")


def test_a_python_value_is_shown_with_its_type():
    with pytest.raises(AssertionError, match=r"got:      list, value \[1, 4, 9"):
        c2w1.check("tf_square", lambda a: [int(v) ** 2 for v in np.ravel(a)])


def test_a_matrix_product_instead_of_element_wise_multiplication_is_caught():
    def matmul_when_possible(a, b):
        if a.shape.rank == b.shape.rank == 2 and a.shape[1] == b.shape[0]:
            return tf.matmul(a, b)
        return tf.multiply(a, b)

    with pytest.raises(AssertionError, match="public test 3 of 3 failed: wrong values") as failure:
        c2w1.check("tf_multiply", matmul_when_possible)
    assert "not with a matrix product (tf.matmul, @)" in str(failure.value)


@pytest.mark.parametrize("exercise", sorted(CORRECT))
def test_a_function_that_raises_fails_with_the_error_and_keeps_its_traceback(exercise):
    def broken(*args):
        return tf.sqare(args[0])  # a typo, as a learner would make it

    with pytest.raises(AssertionError) as failure:
        c2w1.check(exercise, broken)
    message = str(failure.value)
    assert message.startswith(f"{exercise}: public test 1 of 3 failed: the function raised AttributeError: ")
    assert "sqare" in message and "Hint: " in message
    assert isinstance(failure.value.__cause__, AttributeError)


def test_a_forgotten_watch_gets_a_tape_hint():
    def no_watch(x):
        with tf.GradientTape() as t:
            z = tf.reduce_sum(3 * x**3 - 2 * x**2 + x)
        return t.gradient(z, x)

    with pytest.raises(AssertionError, match="it returned None") as failure:
        c2w1.check("tf_gradient_tape", no_watch)
    assert "after t.watch(x)" in str(failure.value)


def test_an_unknown_exercise_or_a_non_function_is_refused():
    with pytest.raises(ValueError, match="Unknown exercise 'tf_cube'. Expected one of: tf_constant"):
        c2w1.check("tf_cube", tf.square)
    with pytest.raises(TypeError, match="needs your function itself"):
        c2w1.check("tf_square", tf.square(2))


def test_the_check_module_ships_no_oracle():
    """Only public inputs and hints live in the module; the expected outputs come from the solution."""
    tree = ast.parse(Path(c2w1.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"__future__", "numpy", "graders._public", "graders._spec"}
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.Lambda)]

"""AutoGraph control flow on tensors: the course's examples, tracing counts and the errors."""

import sys

import numpy as np
import pytest

import companion as tf


def test_if_on_a_tensor_squares_positive_values():
    @tf.function
    def square_if_positive(x):
        if x > 0:
            x = x * x
        else:
            x = 0
        return x

    assert int(square_if_positive(tf.constant(3))) == 9
    assert int(square_if_positive(tf.constant(-2))) == 0
    assert square_if_positive.experimental_get_tracing_count() == 1


def test_returning_strings_chosen_by_a_tensor_condition():
    @tf.function
    def sign(x):
        if x > 0:
            return "Positive"
        else:
            return "Negative or zero"

    assert sign(tf.constant(2)).numpy() == b"Positive"
    assert sign(tf.constant(-2)).numpy() == b"Negative or zero"


def test_elif_chain_and_conditional_expression():
    @tf.function
    def classify(x):
        if x > 10:
            y = 2
        elif x > 0:
            y = 1
        else:
            y = 0
        return y * 10 if x > 5 else y

    assert [int(classify(tf.constant(v))) for v in (20, 7, 3, -1)] == [20, 10, 1, 0]


def test_fizzbuzz_over_range_of_a_tensor(capsys):
    @tf.function
    def fizzbuzz(max_num):
        counter = 0
        for num in range(max_num):
            if num % 3 == 0 and num % 5 == 0:
                tf.print("FizzBuzz", output_stream=sys.stdout)
            elif num % 3 == 0:
                tf.print("Fizz", output_stream=sys.stdout)
            elif num % 5 == 0:
                tf.print("Buzz", output_stream=sys.stdout)
            else:
                tf.print(num, output_stream=sys.stdout)
            counter += 1
        return counter

    assert int(fizzbuzz(tf.constant(16))) == 16
    want = ["FizzBuzz" if n % 15 == 0 else "Fizz" if n % 3 == 0 else "Buzz" if n % 5 == 0 else str(n)
            for n in range(16)]
    assert capsys.readouterr().out.split() == want
    fizzbuzz(tf.constant(40))
    assert fizzbuzz.experimental_get_tracing_count() == 1  # one program for any bound


def test_while_on_a_tensor():
    @tf.function
    def f(x):
        while tf.reduce_sum(x) > 1:
            x = tf.tanh(x)
        return x

    start = np.array([1.0, 0.9, 0.8], np.float32)
    want = start.copy()
    while want.sum() > 1:
        want = np.tanh(want)
    np.testing.assert_allclose(f(tf.constant(start)).numpy(), want, rtol=1e-5)


def test_sum_even_with_continue():
    @tf.function
    def sum_even(items):
        s = 0
        for c in items:
            if c % 2 > 0:
                continue
            s += c
        return s

    assert int(sum_even(tf.constant([10, 12, 15, 20]))) == 42


def test_break_and_return_inside_tensor_loops():
    @tf.function
    def partial_sum(n):
        s = tf.constant(0)
        for i in tf.range(n):
            if i > 5:
                break
            s += i
        return s

    @tf.function
    def find(x):
        for i in tf.range(10):
            if i == x:
                return i * 10
        return -1

    assert int(partial_sum(tf.constant(100))) == 15
    assert int(find(tf.constant(3))) == 30 and int(find(tf.constant(30))) == -1


def test_python_loops_are_unrolled():
    @tf.function
    def f(x):
        for _ in range(3):
            x = x + 1
        return x

    assert int(f(tf.constant(0))) == 3
    assert f.get_concrete_function(tf.constant(0)).graph.operations().count("add") == 3


def test_variable_assigned_inside_a_tensor_loop():
    total = tf.Variable(0.0)

    @tf.function
    def accumulate(values):
        for v in values:
            total.assign_add(v)

    accumulate(tf.constant([1.0, 2.0, 3.0]))
    assert float(total) == 6.0


def test_variable_assigned_in_one_branch():
    v = tf.Variable(1.0)

    @tf.function
    def maybe_double(x):
        if x > 0:
            v.assign(v * 2.0)
        return v.read_value()

    assert float(maybe_double(tf.constant(1))) == 2.0
    assert float(maybe_double(tf.constant(-1))) == 2.0
    assert float(maybe_double(tf.constant(1))) == 4.0


def test_logical_operators_on_tensors():
    @tf.function
    def f(a, b):
        return (a > 0 and b > 0) or not a > -5

    assert [bool(f(tf.constant(x), tf.constant(y))) for x, y in [(1, 1), (1, -1), (-9, -1)]] == [
        True, False, True]


def test_variable_defined_in_one_branch_only_names_it():
    @tf.function
    def f(x):
        if x > 0:
            y = x
        return y

    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        f(tf.constant(1))


def test_loop_variable_changing_dtype_names_it():
    @tf.function
    def f(x):
        y = tf.constant(0)
        while x > 0:
            y = tf.cast(y, tf.float32) + 0.5
            x -= 1
        return y

    message = r"test_control_flow.py:\d+: 'y' has dtype int32 and shape \(\) before"
    with pytest.raises(TypeError, match=message):
        f(tf.constant(3))


def test_variable_defined_only_inside_a_tensor_loop_starts_as_zeros_as_in_tf():
    # TF 2.21: the loop defines it (zeros of the body's type before the first iteration) and the
    # program asserts that the loop iterates at least once
    @tf.function
    def f(n):
        for i in tf.range(n):
            last = i
        return last

    @tf.function
    def g(n):
        x = None
        i = 0
        while i < n:
            x = tf.fill([2], tf.cast(i, tf.float32) * 2.0)
            i += 1
        return x

    assert int(f(tf.constant(3))) == 2
    np.testing.assert_array_equal(g(tf.constant(3)).numpy(), [4.0, 4.0])
    for fn, name in ((f, "last"), (g, "x")):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=rf"^assertion failed: \[loop must iterate at least once to "
                                 rf"initialize {name}\]$"):
            fn(tf.constant(0))


def test_variable_defined_only_inside_a_dataset_loop_must_be_defined_before_it():
    @tf.function
    def f(ds):
        for x in ds:
            last = x
        return last

    with pytest.raises(ValueError, match="'last' must be defined before the for loop"):
        f(tf.data.Dataset.range(3))


def test_to_code_shows_the_converted_structure():
    def f(x):
        if x > 0:
            x = x * x
        while x < 100:
            x = x * 2
        return x

    code = tf.autograph.to_code(f)
    assert "ag__.if_stmt(" in code and "ag__.while_stmt(" in code
    converted = tf.autograph.to_graph(f)
    assert converted(3) == 144


def test_do_not_convert_calls_the_function_as_is():
    @tf.autograph.experimental.do_not_convert
    def helper(x):
        return x + 1

    @tf.function
    def f(x):
        return helper(x)

    assert int(f(tf.constant(1))) == 2


def test_a_tape_differentiates_through_loops_of_known_length():
    @tf.function
    def power(x, rows):
        y = x
        for _ in tf.range(3):
            y = y * x
        for row in rows:
            y = y + tf.reduce_sum(row) * x
        return y

    x = tf.constant(2.0)
    rows = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = power(x, rows)
    assert float(y) == 16.0 + 10.0 * 2.0
    assert float(tape.gradient(y, x)) == 4 * 2.0 ** 3 + 10.0

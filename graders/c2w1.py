"""Public checks for the Week 1 assignment (C2W1): a few visible cases per graded function.

In the notebook, after an exercise cell::

    from graders.c2w1 import check
    check("tf_square", tf_square)

A check prints one line when every public case passes; otherwise it raises
``AssertionError`` saying which call failed, what was expected and what came back (type,
dtype, shape, value), with a hint. Expected values come from NumPy, with TensorFlow's
documented dtype rules (Python ints become int32, Python floats float32, NumPy arrays keep
their dtype). The autograder runs other, hidden cases: passing these is necessary, not
sufficient.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import companion as tf

__all__ = ["EXERCISES", "check"]


def _tf_array(value) -> np.ndarray:
    """`value` as NumPy holds it after `tf.constant`: arrays keep their dtype, Python numbers narrow."""
    if isinstance(value, np.ndarray):
        return value
    array = np.asarray(value)
    narrow = {np.dtype(np.int64): np.int32, np.dtype(np.float64): np.float32}
    return array.astype(narrow.get(array.dtype, array.dtype))


def _gradient_oracle(x: np.ndarray) -> np.ndarray:
    """d/dx of sum(3x^3 - 2x^2 + x), element by element, in the dtype of x (29.0 at x = 2)."""
    return (9 * x**2 - 4 * x + 1).astype(x.dtype)


# exercise -> (NumPy oracle taking the arguments as NumPy sees them, public argument lists as source)
_CASES: dict[str, tuple[Callable, list[str]]] = {
    "tf_constant": (_tf_array, [
        "np.arange(1, 10)",
        "np.array([[1.5, -2.0], [0.25, 4.0]])",
        "[[1, 2, 3], [4, 5, 6]]",
    ]),
    "tf_square": (lambda a: np.square(_tf_array(a)), [
        "np.arange(1, 10)",
        "np.array([-1.5, 0.5, 3.0], dtype=np.float32)",
        "[[1, -2], [3, -4]]",
    ]),
    "tf_reshape": (lambda a, shape: np.reshape(_tf_array(a), shape), [
        "np.arange(1, 10), (3, 3)",
        "np.arange(12.0), (2, -1, 3)",
        "[1, 2, 3, 4, 5, 6], [3, 2]",
    ]),
    "tf_cast": (lambda a, dtype: _tf_array(a).astype(dtype.as_numpy_dtype), [
        "[1, 2, 3, 4], tf.float32",
        "np.array([1.7, -0.5, 2.9]), tf.int32",
        "np.arange(4), tf.uint32",
    ]),
    "tf_multiply": (np.multiply, [
        "tf.constant(np.array([[1, 2], [3, 4]])), tf.constant(np.array(2))",
        "tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant([0.5, -1.0, 2.0])",
        "tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]])",
    ]),
    "tf_add": (np.add, [
        "tf.constant(np.array([[1, 2], [3, 4]])), tf.constant(np.array([[1], [2]]))",
        "tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant([0.5, -1.0, 2.0])",
        "tf.constant([1, 2, 3]), tf.constant(10)",
    ]),
    "tf_gradient_tape": (_gradient_oracle, [
        "tf.constant(2.0)",
        "tf.constant([1.0, 0.0, -1.0])",
        "tf.constant(np.array([[0.5, 2.0], [-2.0, 3.0]]))",
    ]),
}

EXERCISES = tuple(_CASES)

_GENERIC_HINTS = {
    "raised": "The traceback above points at the line of your function that failed.",
    "none": "None means a `None  # YOUR CODE HERE` placeholder is still in place, or the function "
            "returns nothing: replace every placeholder and keep the `return` line.",
    "type": "Return a companion Tensor, the result of the companion op (tf.something(...)).",
    "dtype": "Don't cast: the op keeps the dtype of its inputs.",
    "shape": "The result should have the shape shown under `expected`.",
    "value": "Compare your values with `expected` element by element.",
}

_HINTS = {
    "tf_constant": {
        "type": "Return tf.constant(array): a companion Tensor, not the NumPy array itself and not a "
                "tf.Variable.",
        "dtype": "tf.constant keeps a NumPy array's dtype (int64 stays int64) and turns Python ints into "
                 "int32: pass no dtype= and don't cast.",
        "shape": "Pass the array to tf.constant unchanged (no shape=, no reshape).",
        "value": "Pass the array to tf.constant unchanged.",
    },
    "tf_square": {
        "type": "Return the result of tf.square(...), a companion Tensor (np.square gives a NumPy array).",
        "dtype": "Squaring keeps the dtype of the input: don't cast.",
        "shape": "tf.square works element by element, so the shape stays the same.",
        "value": "Square every element (x * x), e.g. with tf.square.",
    },
    "tf_reshape": {
        "type": "Return the result of tf.reshape(array, shape), a companion Tensor.",
        "dtype": "Reshaping never changes the dtype: don't cast.",
        "shape": "Reshape to the `shape` argument you were given: tf.reshape(array, shape).",
        "value": "tf.reshape keeps the elements in row-major order: don't transpose or sort them.",
    },
    "tf_cast": {
        "type": "Return the result of tf.cast(...), a companion Tensor.",
        "dtype": "Cast to the `dtype` argument you were given: tf.cast(tensor, dtype).",
        "shape": "Casting keeps the shape: don't reshape.",
        "value": "Casting a float to an integer drops the fraction (1.7 -> 1, -0.5 -> 0): cast, don't round.",
    },
    "tf_multiply": {
        "type": "Return the result of tf.multiply(tensor1, tensor2), a companion Tensor.",
        "dtype": "Multiplying two tensors of one dtype keeps that dtype: don't cast.",
        "shape": "Element-wise multiplication broadcasts: (2, 2) with () gives (2, 2), (2, 3) with (3,) "
                 "gives (2, 3).",
        "value": "Multiply element by element (tf.multiply or *), not with a matrix product (tf.matmul, @).",
    },
    "tf_add": {
        "type": "Return the result of tf.add(tensor1, tensor2), a companion Tensor.",
        "dtype": "Adding two tensors of one dtype keeps that dtype: don't cast.",
        "shape": "Addition broadcasts: (2, 2) with (2, 1) gives (2, 2), (3,) with () gives (3,).",
        "value": "Add element by element with broadcasting (tf.add or +).",
    },
    "tf_gradient_tape": {
        "type": "Return dz_dx = t.gradient(z, x), a companion Tensor.",
        "none": "None means a `None  # YOUR CODE HERE` placeholder is still in place, or the tape recorded "
                "no path from x to z (t.gradient then returns None): compute y and z inside the "
                "`with tf.GradientTape() as t:` block, after t.watch(x).",
        "dtype": "The gradient has the dtype of x: don't cast.",
        "shape": "z = tf.reduce_sum(y) is a scalar and dz/dx has the shape of x: take t.gradient(z, x).",
        "value": "y = 3 * x**3 - 2 * x**2 + x element by element and z = tf.reduce_sum(y); "
                 "dz/dx at x = 2.0 is 29.0.",
    },
}


def check(exercise: str, function: Callable) -> None:
    """Runs the public cases of `exercise` on `function`; prints one line or raises AssertionError.

    Args:
        exercise: the graded function's name, one of `EXERCISES` (e.g. "tf_square").
        function: your implementation, e.g. `tf_square`.

    Raises:
        AssertionError: a case failed; the message shows the call, the expected and the
            returned value (type, dtype, shape, value) and a hint.
        ValueError: `exercise` is not a Week 1 exercise.
    """
    __tracebackhide__ = True  # IPython and pytest show the learner's call, not this module's frames
    if exercise not in _CASES:
        raise ValueError(f"Unknown exercise {exercise!r}. Expected one of: {', '.join(EXERCISES)}.")
    if not callable(function):
        raise TypeError(f"check({exercise!r}, ...) needs your function itself, e.g. check({exercise!r}, "
                        f"{exercise}). Received: {function!r}")
    oracle, cases = _CASES[exercise]
    for number, source in enumerate(cases, start=1):
        _run_case(exercise, function, oracle, source, f"public test {number} of {len(cases)}")
    print(f"{exercise}: all {len(cases)} public tests passed")


def _run_case(exercise: str, function: Callable, oracle: Callable, source: str, label: str) -> None:
    """Calls `function` on the arguments written in `source` and compares with the oracle."""
    __tracebackhide__ = True
    namespace = {"np": np, "tf": tf}
    expected = oracle(*[_as_numpy(arg) for arg in eval(f"({source},)", namespace)])  # our own constant text
    try:
        got = function(*eval(f"({source},)", namespace))
    except Exception as error:
        message = _report(exercise, label, source, expected, None,
                          f"the function raised {type(error).__name__}: {str(error).rstrip('.')}", "raised")
        raise AssertionError(message) from error
    problem = _find_problem(got, expected)
    if problem:
        raise AssertionError(_report(exercise, label, source, expected, got, *problem))


def _find_problem(got, expected: np.ndarray) -> tuple[str, str] | None:
    """(what is wrong, hint key) for the first difference between `got` and `expected`, else None."""
    if got is None:
        return "it returned None", "none"
    if not isinstance(got, tf.Tensor):
        return f"it returned a {_type_name(got)}", "type"
    value = got.numpy()
    if value.dtype != expected.dtype:
        return f"wrong dtype {value.dtype.name} (expected {expected.dtype.name})", "dtype"
    if value.shape != expected.shape:
        return f"wrong shape {value.shape} (expected {expected.shape})", "shape"
    if not _same_values(value, expected):
        return "wrong values", "value"
    return None


def _same_values(value: np.ndarray, expected: np.ndarray) -> bool:
    if np.issubdtype(expected.dtype, np.inexact):
        return bool(np.allclose(value, expected, rtol=1e-5, atol=1e-6))
    return bool(np.array_equal(value, expected))


def _report(exercise, label, source, expected, got, problem: str, hint_key: str) -> str:
    """The failure message: what failed, the call, expected vs got, and a hint."""
    hint = _HINTS[exercise].get(hint_key, _GENERIC_HINTS[hint_key])
    lines = [f"{exercise}: {label} failed: {problem}.",
             f"  call:     {exercise}({source})",
             f"  expected: {_describe(expected, expected_tensor=True)}"]
    if hint_key != "raised":
        lines.append(f"  got:      {_describe(got)}")
    lines.append(f"Hint: {hint}")
    return "\n".join(lines)


def _describe(value, expected_tensor: bool = False) -> str:
    """'TYPE, dtype D, shape S, value V' for a tensor, array or anything else."""
    if value is None:
        return "None"
    kind = "companion.Tensor" if expected_tensor else _type_name(value)
    if not isinstance(value, tf.Tensor | tf.Variable | np.ndarray | np.generic):
        return f"{kind}, value {_shorten(repr(value))}"
    array = np.asarray(_as_numpy(value))
    text = np.array2string(array, separator=", ", threshold=20).replace("\n", "")
    return f"{kind}, dtype {array.dtype.name}, shape {array.shape}, value {text}"


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _type_name(value) -> str:
    for public in (tf.Tensor, tf.Variable):
        if isinstance(value, public):
            return f"companion.{public.__name__}"
    cls = type(value)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


def _as_numpy(value):
    """Tensors and Variables as NumPy arrays; anything else unchanged."""
    return value.numpy() if isinstance(value, tf.Tensor | tf.Variable) else value

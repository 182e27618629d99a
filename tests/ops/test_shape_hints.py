"""Shape errors that teach: a refused product says whether the other kind of product takes the shapes.

The shapes the hints promise are checked against NumPy (np.matmul, broadcasting); the exception
class stays TensorFlow's InvalidArgumentError, eagerly and inside `function`.
"""

import re

import numpy as np
import pytest

import companion as tf


def _shape_in(message: str, after: str) -> tuple:
    found = re.search(re.escape(after) + r".*?(?:gives|giving) shape \(([\d, ]*)\)", message)
    assert found, message
    return tuple(int(part) for part in found.group(1).split(",") if part.strip())


@pytest.mark.parametrize("staged", [False, True])
@pytest.mark.parametrize("shape_x, shape_y", [((2, 3), (3, 4)), ((5, 2, 3), (3, 7)), ((3, 4), (4, 2))])
def test_multiply_of_matmul_shapes_suggests_the_matrix_product(staged, shape_x, shape_y):
    assert not _broadcasts(shape_x, shape_y)
    x, y = tf.ones(shape_x), tf.ones(shape_y)
    multiply = tf.function(lambda a, b: a * b) if staged else (lambda a, b: a * b)
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        multiply(x, y)
    message = str(raised.value)
    # inside a function, TF's shape-inference message (TF 2.21) comes first, then the hint
    expected = "with input shapes:" if staged else "cannot be broadcast together"
    assert expected in message and "Did you mean a matrix product?" in message
    assert _shape_in(message, "tf.matmul(x, y)") == np.matmul(np.ones(shape_x), np.ones(shape_y)).shape


def test_tf_multiply_suggests_matmul_but_add_does_not():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"tf.matmul\(x, y\) \(or x @ y\)"):
        tf.multiply(tf.ones((2, 3)), tf.ones((3, 4)))
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.add(tf.ones((2, 3)), tf.ones((3, 4)))
    assert "matmul" not in str(raised.value)


def test_multiply_that_no_product_accepts_has_no_suggestion():
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.ones((2, 3)) * tf.ones((4, 5))
    assert "Did you mean" not in str(raised.value)


@pytest.mark.parametrize("staged", [False, True])
def test_matmul_of_same_shapes_suggests_multiply_and_the_transpose(staged):
    a, b = tf.ones((3, 2)), tf.ones((3, 2))
    matmul = tf.function(lambda p, q: p @ q) if staged else (lambda p, q: p @ q)
    # TF 2.21 inside a function: "Dimensions must be equal, but are 2 and 3 for '{{node matmul}} ..."
    expected = "Dimensions must be equal, but are 2 and 3 for" if staged else "Matrix size-incompatible"
    with pytest.raises(tf.errors.InvalidArgumentError, match=expected) as raised:
        matmul(a, b)
    message = str(raised.value)
    assert _shape_in(message, "tf.multiply(a, b) (or a * b)") == (np.ones((3, 2)) * np.ones((3, 2))).shape
    assert _shape_in(message, "transpose_b=True") == np.matmul(np.ones((3, 2)), np.ones((3, 2)).T).shape
    assert tf.matmul(a, b, transpose_b=True).shape == (3, 3)  # the suggestion works


def test_matmul_suggests_transpose_a_when_the_rows_agree():
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.matmul(tf.ones((4, 3)), tf.ones((4, 2)))
    message = str(raised.value)
    assert _shape_in(message, "transpose_a=True") == np.matmul(np.ones((4, 3)).T, np.ones((4, 2))).shape
    assert "element-wise" not in message  # (4, 3) and (4, 2) do not broadcast


def test_matmul_of_vectors_suggests_multiply():
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2") as raised:
        tf.matmul(tf.ones((3,)), tf.ones((3,)))
    assert _shape_in(str(raised.value), "tf.multiply(a, b)") == (3,)


def test_matmul_whose_shapes_fit_nothing_keeps_tfs_message_alone():
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.matmul(tf.ones((2, 3)), tf.ones((4, 5)))
    message = str(raised.value)
    assert message.startswith("Matrix size-incompatible: In[0]: [2, 3], In[1]: [4, 5]")
    assert "transpose_" not in message.split(")", 1)[1] and "element-wise" not in message


def _broadcasts(*shapes):
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        return False
    return True

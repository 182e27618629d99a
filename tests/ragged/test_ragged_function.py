"""RaggedTensors returned from a `function` (the Ragged tensors guide's tf.function section, TF 2.21)."""

import companion as tf


def test_function_returns_ragged_results():
    @tf.function
    def make_palindrome(x, axis):
        return tf.concat([x, tf.reverse(x, [axis])], axis)

    out = make_palindrome(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), axis=1)
    assert out.to_list() == [[1, 2, 2, 1], [3, 3], [4, 5, 6, 6, 5, 4]]
    assert make_palindrome(tf.ragged.constant([[1], [3, 4]]), axis=1).to_list() == [[1, 1], [3, 4, 4, 3]]


def test_concrete_function_and_variables_with_ragged_values():
    @tf.function
    def increment(x):
        return x + 1

    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    assert increment.get_concrete_function(rt)(rt).to_list() == [[2, 3], [4], [5, 6, 7]]
    assert increment(tf.ragged.constant([[10, 20], [30]])).to_list() == [[11, 21], [31]]
    v = tf.Variable(2.0)

    @tf.function
    def scaled(x):
        return {"out": x * v}

    x = tf.ragged.constant([[1.0, 2.0], [3.0]])
    assert scaled(x)["out"].to_list() == [[2.0, 4.0], [6.0]]
    v.assign(3.0)
    assert scaled(x)["out"].to_list() == [[3.0, 6.0], [9.0]]

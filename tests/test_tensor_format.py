"""``format(tensor, spec)`` formats the value as NumPy does, as TensorFlow's eager tensors do."""

import numpy as np

import companion as tf


def test_format_uses_the_numpy_value():
    assert f"{tf.constant(2.5):.3f}" == "2.500"
    assert "{}".format(tf.constant([1, 2])) == str(np.array([1, 2]))
    assert "{:>5}".format(tf.constant(7)) == "    7"


def test_string_tensors_format_as_bytes():
    assert "Sign = {}".format(tf.constant("Positive")) == "Sign = b'Positive'"


def test_a_traced_tensor_formats_as_its_description():
    seen = []

    @tf.function
    def f(x):
        seen.append(f"{x}")
        return x

    f(tf.constant(1.0))
    assert seen == ['Tensor("x:0", shape=(), dtype=float32)']  # TF's graph tensor


def test_a_scalars_repr_shows_its_python_value_as_tf():
    # TF 2.21 (ops.numpy_text): repr(scalar.item()) for a 0-d tensor
    assert repr(tf.constant(0.1)) == "<companion.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"
    assert repr(tf.constant(np.float16(0.1))).endswith("numpy=0.0999755859375>")
    assert repr(tf.constant(3)).endswith("numpy=3>") and repr(tf.constant(True)).endswith("numpy=True>")
    assert repr(tf.Variable(0.1)).endswith("numpy=0.10000000149011612>")
    assert repr(tf.constant("a")).endswith("numpy=b'a'>")
    assert str(tf.constant(0.1)) == "companion.Tensor(0.1, shape=(), dtype=float32)"

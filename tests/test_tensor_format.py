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

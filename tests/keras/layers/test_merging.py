"""Merge layers: Keras 3's shape rules and error texts (recorded from TF 2.21 / Keras 3.15)."""

import numpy as np
import pytest

import companion as tf

layers = tf.keras.layers
A = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_lower_rank_inputs_get_axes_after_the_batch_axis():
    c = np.arange(6, dtype=np.float32).reshape(2, 1, 3)
    out = layers.Add()([A, c])
    np.testing.assert_array_equal(out.numpy(), A[:, None, :] + c)  # not NumPy's (2, 2, 3) broadcast
    assert layers.Add().compute_output_shape([(None, 3), (None, 1, 3)]) == (None, 1, 3)


def test_one_input_is_merged_into_itself():
    for layer in (layers.Add(), layers.Multiply(), layers.Concatenate()):
        np.testing.assert_array_equal(layer([A]).numpy(), A)


@pytest.mark.parametrize(("layer", "inputs", "message"), [
    (layers.Subtract(), [A], "A `Subtract` layer should be called on exactly 2 inputs. "
                             "Received: input_shape=[(2, 3)]"),
    (layers.Subtract(), [A, A, A], "A `Subtract` layer should be called on exactly 2 inputs. "
                                   "Received: input_shape=[(2, 3), (2, 3), (2, 3)]"),
    (layers.Multiply(), [A, np.ones((2, 4), np.float32)],
     "Inputs have incompatible shapes. Received shapes (3,) and (4,)"),
    (layers.Add(), [A, A, np.ones((2, 4), np.float32)],
     "Inputs have incompatible shapes. Received shapes (3,) and (4,)"),
    (layers.Add(), [A, np.ones((3, 3), np.float32)],
     "Cannot merge tensors with different batch sizes. Received tensors with shapes [(2, 3), (3, 3)]"),
    (layers.Add(), A, "A merge layer should be called on a list of inputs. Received: input_shape=(2, 3) "
                      "(not a list of shapes)"),
    (layers.Concatenate(), A, "A `Concatenate` layer should be called on a list of at least 1 input. "
                              "Received: input_shape=(2, 3)"),
    (layers.Concatenate(), [A, np.ones((2, 3, 1), np.float32)],
     "A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. "
     "Received: input_shape=[(2, 3), (2, 3, 1)]"),
])
def test_shape_errors_are_keras_3s(layer, inputs, message):
    with pytest.raises(ValueError) as info:
        layer(inputs)
    assert str(info.value) == message


def test_symbolic_shapes_are_checked_with_unknown_batch():
    with pytest.raises(ValueError, match=r"Received: input_shape=\[\(None, 3\), \(None, 4\)\]$"):
        layers.Concatenate(axis=0)([tf.keras.Input((3,)), tf.keras.Input((4,))])
    joined = layers.Concatenate(axis=1)([tf.keras.Input((3,)), tf.keras.Input((4,))])
    assert joined.shape == (None, 7)

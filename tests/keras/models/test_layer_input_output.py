"""Keras 3's symbolic view of a model: Input(...).dtype as a string, layer.input/output, model.input/output.

Expected values are what Keras 3.15 (TF 2.21) gives for the same models.
"""

import pytest

import companion as tf


def test_input_dtype_is_a_string():
    assert tf.keras.Input(shape=(3,)).dtype == "float32"  # Keras 3.15: 'float32' (a str)
    assert isinstance(tf.keras.Input(shape=(3,)).dtype, str)
    assert tf.keras.Input((2,), dtype="int32").dtype == "int32"
    assert tf.keras.Input((2,), dtype=tf.int64).dtype == "int64"
    out = tf.keras.layers.Dense(4)(tf.keras.Input(shape=(3,)))
    assert out.dtype == "float32" and out.dtype == tf.float32


def test_layer_input_and_output_in_a_functional_model():
    inputs = tf.keras.Input(shape=(3,), name="features")
    dense = tf.keras.layers.Dense(4)
    outputs = dense(inputs)
    model = tf.keras.Model(inputs, outputs)
    # Keras 3.15: True True True True
    assert dense.output is outputs and dense.input is inputs
    assert model.input is inputs and model.output is outputs
    assert model.layers[0].output is inputs
    shared = tf.keras.layers.Dense(3)
    first = shared(inputs)
    shared(inputs)
    assert shared.output is first  # the first call's output, as Keras 3 gives


def test_layer_outputs_in_a_sequential_model():
    model = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Conv2D(8, 3),
                                 tf.keras.layers.MaxPooling2D(), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(10)])
    shapes = [tuple(layer.output.shape) for layer in model.layers]
    # Keras 3.15: (None, 26, 26, 8) (None, 13, 13, 8) (None, 1352) (None, 10)
    assert shapes == [(None, 26, 26, 8), (None, 13, 13, 8), (None, 1352), (None, 10)]
    assert tuple(model.layers[0].input.shape) == (None, 28, 28, 1)
    built = tf.keras.Sequential([tf.keras.layers.Dense(8)])
    built.build((None, 4))
    assert tuple(built.layers[0].output.shape) == (None, 8)  # Keras 3.15: (None, 8)
    # a feature extractor from a layer's output
    features = tf.keras.Model(model.input, model.layers[2].output)
    assert tuple(features(tf.ones((2, 28, 28, 1))).shape) == (2, 1352)


def test_a_layer_never_called_symbolically_has_no_output():
    layer = tf.keras.layers.Dense(3)
    with pytest.raises(AttributeError, match="never been called"):  # Keras 3.15: AttributeError
        _ = layer.output
    layer(tf.ones((2, 2)))  # an eager call defines no symbolic output either (Keras 3.15)
    with pytest.raises(AttributeError, match="never been called"):
        _ = layer.input

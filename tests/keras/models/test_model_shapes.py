"""Model.input_shape / output_shape as TF 2.21 (Keras 3.15) reports them, and when it raises."""

import numpy as np
import pytest

import companion as tf

keras = tf.keras


def test_functional_single_several_and_dict_inputs():
    inputs = keras.Input((3,))
    model = keras.Model(inputs, keras.layers.Dense(2)(inputs))
    assert (model.input_shape, model.output_shape) == ((None, 3), (None, 2))  # TF 2.21
    a, b = keras.Input((3,), name="a"), keras.Input((4,), name="b")
    several = keras.Model([a, b], [keras.layers.Dense(2)(a), keras.layers.Dense(5)(b)])
    assert several.input_shape == [(None, 3), (None, 4)]  # TF 2.21: lists of tuples
    assert several.output_shape == [(None, 2), (None, 5)]
    keyed = keras.Model({"a": a, "b": b}, keras.layers.Dense(2)(a))
    assert (keyed.input_shape, keyed.output_shape) == ([(None, 3), (None, 4)], (None, 2))  # TF 2.21


def test_sequential_with_an_input_and_unbuilt():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    assert (model.input_shape, model.output_shape) == ((None, 3), (None, 2))
    unbuilt = keras.Sequential([keras.layers.Dense(2)])
    with pytest.raises(AttributeError, match="input shape"):  # TF 2.21: "has no defined input shape"
        unbuilt.input_shape
    with pytest.raises(AttributeError, match="output shape"):
        unbuilt.output_shape


def test_subclassed_model_has_no_input_shape_even_after_a_call():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(2)

        def call(self, inputs):
            return self.dense(inputs)

    model = Net()
    model(np.ones((4, 3), "float32"))
    with pytest.raises(AttributeError, match="input_shape"):  # TF 2.21: 'N' object has no attribute ...
        model.input_shape
    with pytest.raises(AttributeError, match="output_shape"):
        model.output_shape

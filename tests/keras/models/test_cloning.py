"""keras.models.clone_model: new layers (names kept), fresh weights, clone_function and input_tensors.

Expected behaviour from TF 2.21 / Keras 3.15 running the same calls.
"""

import numpy as np
import pytest

import companion as tf

keras = tf.keras


def _functional():
    inputs = keras.Input((3,))
    return keras.Model(inputs, keras.layers.Dense(2, name="out")(keras.layers.Dense(4, name="h")(inputs)))


def test_functional_clone_has_new_layers_with_the_same_names_and_fresh_weights():
    model = _functional()
    model.compile("sgd", "mse")
    clone = keras.models.clone_model(model)
    assert [layer.name for layer in clone.layers][1:] == ["h", "out"]  # TF 2.21 keeps layer names
    assert all(a is not b for a, b in zip(clone.layers, model.layers))
    assert clone.built and clone.output_shape == (None, 2)
    assert not np.allclose(clone.get_weights()[0], model.get_weights()[0])  # re-initialised
    assert clone.optimizer is None  # TF 2.21: not compiled
    clone.set_weights(model.get_weights())
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(clone(x).numpy(), model(x).numpy())


def test_sequential_clone_keeps_its_input():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    clone = keras.models.clone_model(model)
    assert type(clone) is keras.Sequential and clone.built and clone.input_shape == (None, 3)


def test_clone_function_replaces_layers():
    def widen(layer):
        if isinstance(layer, keras.layers.Dense):
            return keras.layers.Dense(7, name="seven")
        return layer.__class__.from_config(layer.get_config())

    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    clone = keras.models.clone_model(model, clone_function=widen)
    assert clone.output_shape == (None, 7) and [layer.name for layer in clone.layers] == ["seven"]


def test_clone_function_returning_the_layer_shares_it():
    model = _functional()
    clone = keras.models.clone_model(model, clone_function=lambda layer: layer)
    assert clone.layers[1] is model.layers[1]


def test_input_tensors_build_the_clone_on_new_inputs():
    new_input = keras.Input((3,), name="newin")
    clone = keras.models.clone_model(_functional(), input_tensors=new_input)
    assert clone.input_shape == (None, 3) and clone.layers[0].name == "newin"  # as TF 2.21
    with pytest.raises(ValueError, match="inputs"):
        keras.models.clone_model(_functional(), input_tensors=[new_input, keras.Input((3,))])


def test_multi_output_and_shared_layers():
    shared = keras.layers.Dense(3)
    a, b = keras.Input((3,)), keras.Input((3,))
    model = keras.Model([a, b], [shared(a), shared(shared(b))])
    clone = keras.models.clone_model(model)
    assert clone.output_shape == [(None, 3), (None, 3)]
    assert len(clone.weights) == 2  # the shared layer is cloned once

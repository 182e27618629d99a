"""Wrapper (the base of TimeDistributed) and Pipeline: building, calls, training flags and configs."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers

X = np.arange(6, dtype=np.float32).reshape(2, 3)


class Doubled(layers.Wrapper):
    def call(self, inputs):
        return 2.0 * self.layer(inputs)


def test_wrapper_builds_calls_and_round_trips_the_wrapped_layer():
    wrapper = Doubled(layers.Dense(2, kernel_initializer="ones", name="d"), name="w")
    wrapper.build((None, 3))
    assert wrapper.layer.built and len(wrapper.weights) == 2
    np.testing.assert_allclose(wrapper(X).numpy(), 2 * X.sum(1, keepdims=True) * np.ones((1, 2)))
    config = wrapper.get_config()
    assert config["layer"]["class_name"] == "Dense" and config["name"] == "w"
    clone = Doubled.from_config(config)
    assert isinstance(clone.layer, layers.Dense) and clone.layer.units == 2
    assert issubclass(layers.TimeDistributed, layers.Wrapper)
    with pytest.raises(ValueError, match="isn't a supported layer type"):
        layers.Wrapper(3)


def test_time_distributed_still_round_trips():
    layer = layers.TimeDistributed(layers.Dense(4))
    assert layer(np.ones((2, 5, 3), np.float32)).shape == (2, 5, 4)
    clone = layers.TimeDistributed.from_config(layer.get_config())
    assert clone.layer.units == 4


class Recorder(layers.Layer):
    def call(self, inputs, training=None, mask=None):
        self.seen = (training, mask is not None)
        return inputs + 1.0


def test_pipeline_chains_layers_and_defaults_training_to_true():
    first, second = Recorder(), Recorder()
    pipeline = layers.Pipeline([first, layers.Rescaling(2.0), second], name="pp")
    np.testing.assert_allclose(pipeline(X).numpy(), (X + 1.0) * 2.0 + 1.0)
    assert first.seen == (True, False) and second.seen == (True, False)  # Keras: training=True by default
    pipeline(X, training=False)
    assert first.seen[0] is False
    assert pipeline.get_config() == {"layers": pipeline.get_config()["layers"], "name": "pp"}
    assert [c["class_name"] for c in pipeline.get_config()["layers"]] == ["Recorder", "Rescaling", "Recorder"]


def test_pipeline_weights_models_and_config():
    dense = layers.Dense(3, kernel_initializer="ones")
    pipeline = layers.Pipeline([layers.Rescaling(2.0), dense, layers.Dropout(0.5)])
    np.testing.assert_allclose(pipeline(X, training=False).numpy(), 2 * X.sum(1, keepdims=True) * np.ones(3))
    assert len(pipeline.trainable_weights) == 2 and len(pipeline.layers) == 3
    clone = layers.Pipeline.from_config(pipeline.get_config())
    assert [type(layer).__name__ for layer in clone.layers] == ["Rescaling", "Dense", "Dropout"]
    inputs = tf.keras.Input((3,))
    model = tf.keras.Model(inputs, layers.Pipeline([layers.Dense(4), layers.Dense(1)])(inputs))
    assert model.output_shape == (None, 1) and len(model.trainable_weights) == 4
    model.compile("sgd", "mse")
    model.fit(X, np.ones((2, 1)), verbose=0)
    with pytest.raises(ValueError, match="`layers` key"):
        layers.Pipeline.from_config({"name": "p"})
    with pytest.raises(ValueError, match="list of Keras layers"):
        layers.Pipeline(layers.Dense(1))

"""Sequential's Keras 3 config (InputLayer entry, build_config) and configs written before it."""

import warnings

import numpy as np

from companion import keras

_DENSE = {"module": "keras.layers", "class_name": "Dense", "registered_name": None,
          "config": {"name": "old_dense", "trainable": True, "dtype": "float32", "units": 2,
                     "batch_input_shape": [None, 3]}}


def test_input_layer_is_listed_first_and_round_trips():
    model = keras.Sequential([keras.Input(shape=(3,), name="inp"), keras.layers.Dense(2, name="d")])
    config = model.get_config()
    assert [entry["class_name"] for entry in config["layers"]] == ["InputLayer", "Dense"]
    assert config["layers"][0]["config"] == {"batch_shape": (None, 3), "dtype": "float32", "sparse": False,
                                             "ragged": False, "name": "inp", "optional": False}
    assert config["layers"][1]["build_config"] == {"input_shape": (None, 3)}
    again = keras.Sequential.from_config(config)
    assert [layer.name for layer in again.layers] == ["d"] and again.input_shape == (None, 3)
    assert again.get_config() == config


def test_config_written_before_keras_3_layout_still_loads():
    # companion wrote the shape as the first layer's batch_input_shape, or as build_input_shape only
    for config in ({"name": "old", "layers": [_DENSE]},
                   {"name": "old", "layers": [{**_DENSE, "config": {**_DENSE["config"]}}],
                    "build_input_shape": [None, 3]}):
        model = keras.Sequential.from_config(config)
        assert model.built and model.input_shape == (None, 3) and model.output_shape == (None, 2)
    old_input = {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 3], "dtype": "float32",
                                                        "name": "old_in"}}
    model = keras.Sequential.from_config({"name": "old2", "layers": [old_input, _DENSE]})
    assert model.input_shape == (None, 3)


def test_keras_file_round_trip(tmp_path):
    model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(2), keras.layers.Dropout(0.1)])
    model.compile("sgd", "mse")
    x = np.linspace(0, 1, 12, dtype="float32").reshape(4, 3)
    path = str(tmp_path / "m.keras")
    model.save(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # loading warns about nothing
        loaded = keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
    assert loaded.get_config()["layers"][0]["class_name"] == "InputLayer"

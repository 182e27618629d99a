"""`keras.layers.serialize`/`deserialize` of models: Keras 3's dict (``module``, Functional's
private class, ``build_config``, ``compile_config``), as TF 2.21 / Keras 3.15 printed it."""

import os
import tempfile

import numpy as np
import pytest

import companion as tf

L = tf.keras.layers


def _identity(config):
    names = ("module", "class_name", "registered_name", "build_config", "compile_config")
    return {k: config[k] for k in names if k in config}


def _sequential():
    return tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2, kernel_initializer="ones", name="d")],
                               name="seq")


def test_sequential_is_public_keras_with_build_and_compile_configs():
    assert _identity(L.serialize(_sequential())) == {
        "module": "keras", "class_name": "Sequential", "registered_name": None,
        "build_config": {"input_shape": (None, 3)}, "compile_config": {}}
    unbuilt = tf.keras.Sequential([L.Dense(2)])
    assert "build_config" not in L.serialize(unbuilt) and unbuilt.get_build_config() is None
    unbuilt.build((None, 5))
    assert unbuilt.get_build_config() == {"input_shape": (None, 5)}


def test_functional_is_keras_private_functional_class():
    inputs = tf.keras.Input((3,), name="inp")
    model = tf.keras.Model(inputs, L.Dense(2, name="dd")(inputs), name="func")
    config = L.serialize(model)
    assert _identity(config) == {"module": "keras.src.models.functional", "class_name": "Functional",
                                 "registered_name": "Functional", "build_config": {"input_shape": None},
                                 "compile_config": {}}
    assert config["config"]["layers"][1]["inbound_nodes"] == [
        {"args": ({"class_name": "__keras_tensor__",
                   "config": {"shape": (None, 3), "dtype": "float32", "keras_history": ["inp", 0, 0]}},),
         "kwargs": {}}]
    again = L.deserialize(config)
    assert isinstance(again, tf.keras.Model) and again.name == "func"
    assert [layer.name for layer in again.layers] == ["inp", "dd"]
    assert again(tf.ones((1, 3))).shape == (1, 2)


def test_a_subclassed_model_keeps_its_own_class_and_module():
    class Sub(tf.keras.Model):
        def call(self, x):
            return x

    assert _identity(L.serialize(Sub(name="sub"))) == {
        "module": __name__, "class_name": "Sub", "registered_name": "Sub", "compile_config": {}}


def test_compile_config_has_keras_keys_and_deserialize_compiles():
    model = _sequential()
    model.compile("sgd", "mse", metrics=["mae"], loss_weights=[2.0], steps_per_execution=2)
    compiled = L.serialize(model)["compile_config"]
    assert list(compiled) == ["optimizer", "loss", "loss_weights", "metrics", "weighted_metrics",
                              "run_eagerly", "steps_per_execution", "jit_compile"]
    assert {k: v for k, v in compiled.items() if k != "optimizer"} == {
        "loss": "mse", "loss_weights": [2.0], "metrics": ["mae"], "weighted_metrics": None,
        "run_eagerly": False, "steps_per_execution": 2, "jit_compile": False}
    assert model.get_compile_config() == compiled and model.jit_compile is False
    restored = L.deserialize(L.serialize(model))
    assert type(restored.optimizer).__name__ == "SGD" and restored.loss == "mse"
    assert restored.get_compile_config()["steps_per_execution"] == 2


def test_load_model_with_compile_false_stays_uncompiled():
    model = _sequential()
    model.compile("sgd", "mse")
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model.save(path)
    assert tf.keras.models.load_model(path, compile=False).optimizer is None
    assert type(tf.keras.models.load_model(path).optimizer).__name__ == "SGD"


@pytest.mark.parametrize("kwargs, expected", [({"loss": "mse", "loss_weights": [2.0]}, 18.0),
                                              ({"loss": ["mse"], "loss_weights": [2.0]}, 18.0),
                                              ({"loss": ["mse"]}, 9.0),
                                              ({"loss": "mse", "loss_weights": (3.0,)}, 27.0)])
def test_single_output_takes_one_entry_loss_and_weight_lists(kwargs, expected):
    model = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(1, kernel_initializer="ones")])
    model.compile("sgd", **kwargs)
    x, y = np.ones((4, 3), "float32"), np.zeros((4, 1), "float32")
    assert model.evaluate(x, y, verbose=0) == pytest.approx(expected)


def test_single_output_refuses_a_longer_loss_weights_list():
    model = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(1)])
    with pytest.raises(ValueError, match="loss_weights"):
        model.compile("sgd", "mse", loss_weights=[2.0, 3.0])

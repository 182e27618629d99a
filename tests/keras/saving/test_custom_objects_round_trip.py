"""A `.keras` round trip of a model with a registered layer, loss and metric, and of unregistered ones
(with and without ``custom_objects``): the values and errors Keras 3.15 gives (observed under TF 2.21)."""

import json
import zipfile

import numpy as np
import pytest

import companion as tf

keras = tf.keras


@keras.saving.register_keras_serializable(package="rt")
class _Scale(keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, x):
        return x * self.w * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@keras.saving.register_keras_serializable(package="rt")
def _abs_loss(y_true, y_pred):
    return keras.ops.mean(keras.ops.abs(y_true - y_pred), axis=-1)


@keras.saving.register_keras_serializable(package="rt")
class _MaxErr(keras.metrics.Metric):
    def __init__(self, name="max_err", **kwargs):
        super().__init__(name=name, **kwargs)
        self.m = self.add_weight(name="m", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.m.assign(keras.ops.maximum(self.m, keras.ops.max(keras.ops.abs(y_true - y_pred))))

    def result(self):
        return self.m

    def reset_state(self):
        self.m.assign(0.0)


class _AddOne(keras.layers.Layer):  # not registered
    def call(self, x):
        return x + 1.0


def _square_loss(y_true, y_pred):  # not registered
    return keras.ops.mean(keras.ops.square(y_true - y_pred), axis=-1)


X = np.arange(12, dtype="float32").reshape(4, 3) / 10
Y = np.arange(8, dtype="float32").reshape(4, 2) / 10


def _trained(path):
    inputs = keras.Input((3,))
    scaled = _Scale(3.0, name="scale")(inputs)
    outputs = keras.layers.Dense(2, kernel_initializer="ones", name="dense")(scaled)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss=_abs_loss, metrics=[_MaxErr(), "mae"])
    model.fit(X, Y, epochs=2, verbose=0)
    model.save(path)
    return model


def test_registered_layer_loss_and_metric_come_back_without_custom_objects(tmp_path):
    path = tmp_path / "a.keras"
    model = _trained(path)
    config = json.loads(zipfile.ZipFile(path).read("config.json"))
    assert config["compile_config"]["loss"] == {"module": "builtins", "class_name": "function",
                                                "config": "rt>_abs_loss", "registered_name": "function"}
    assert config["compile_config"]["metrics"] == [
        {"module": __name__, "class_name": "_MaxErr", "config": {"name": "max_err", "dtype": "float32"},
         "registered_name": "rt>_MaxErr"}, "mae"]
    scale = config["config"]["layers"][1]
    assert (scale["class_name"], scale["registered_name"]) == ("_Scale", "rt>_Scale")

    loaded = keras.models.load_model(path)
    predictions = loaded.predict(X, verbose=0)
    np.testing.assert_allclose(predictions[:, 0], [0.841, 3.4096, 5.9781, 8.5467], atol=1e-4)
    np.testing.assert_allclose(loaded.predict(X, verbose=0), model.predict(X, verbose=0))
    assert loaded.loss is _abs_loss
    assert type(loaded.optimizer).__name__ == "SGD" and int(loaded.optimizer.iterations) == 2
    assert float(loaded.optimizer.learning_rate) == pytest.approx(0.01)
    assert np.round(loaded.evaluate(X, Y, verbose=0), 4).tolist() == [4.3438, 7.9467, 4.3438]
    assert loaded.metrics_names == ["loss", "compile_metrics"]
    assert loaded.get_layer("scale").factor == 3.0
    history = loaded.fit(X, Y, epochs=1, verbose=0).history
    assert {k: round(v[0], 4) for k, v in history.items()} == {"loss": 4.3438, "mae": 4.3438,
                                                                "max_err": 7.9467}


def test_an_unregistered_layer_needs_custom_objects(tmp_path):
    inputs = keras.Input((3,))
    model = keras.Model(inputs, _AddOne(name="u")(inputs))
    model.compile(optimizer="adam", loss="mse")
    model.save(tmp_path / "u.keras")
    with pytest.raises(TypeError, match=r"(?s)could not be deserialized properly.*Could not locate class "
                                        r"'_AddOne'"):
        keras.models.load_model(tmp_path / "u.keras")
    loaded = keras.models.load_model(tmp_path / "u.keras", custom_objects={"_AddOne": _AddOne})
    assert type(loaded.layers[1]) is _AddOne
    np.testing.assert_allclose(loaded.predict(X[:1], verbose=0), [[1.0, 1.1, 1.2]], rtol=1e-6)
    with keras.saving.custom_object_scope({"_AddOne": _AddOne}):
        assert type(keras.models.load_model(tmp_path / "u.keras").layers[1]) is _AddOne


def test_an_unregistered_loss_function_needs_custom_objects(tmp_path):
    inputs = keras.Input((3,))
    model = keras.Model(inputs, keras.layers.Dense(2, name="dd")(inputs))
    model.compile(optimizer="adam", loss=_square_loss, metrics=["mae"])
    model.save(tmp_path / "l.keras")
    config = json.loads(zipfile.ZipFile(tmp_path / "l.keras").read("config.json"))
    assert config["compile_config"]["loss"] == {"module": "builtins", "class_name": "function",
                                                "config": "_square_loss", "registered_name": "function"}
    with pytest.raises(TypeError, match=r"^Could not locate function '_square_loss'. Make sure custom"):
        keras.models.load_model(tmp_path / "l.keras")
    loaded = keras.models.load_model(tmp_path / "l.keras", custom_objects={"_square_loss": _square_loss})
    assert loaded.loss is _square_loss
    assert keras.models.load_model(tmp_path / "l.keras", compile=False).compiled is False

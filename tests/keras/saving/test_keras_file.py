"""Model.save / keras.models.load_model in the .keras zip layout, custom objects, compiled state.

Keras 3.15 (TF 2.21) writes ``metadata.json``, ``config.json`` and ``model.weights.h5``;
companion writes the same names, its own weights file under ``model.weights.h5`` (documented).
"""

import json
import zipfile

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(7)
X = RNG.normal(size=(8, 3)).astype("float32")
Y = np.array([0, 1, 2, 1, 0, 2, 1, 1])


def _functional():
    inputs = tf.keras.Input((3,))
    hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(3, activation="softmax")(hidden), name="net")
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def _same_predictions(a, b, x=X):
    np.testing.assert_allclose(a.predict(x, verbose=0), b.predict(x, verbose=0), rtol=1e-6)


def test_the_archive_has_keras_3s_layout(tmp_path):
    path = tmp_path / "m.keras"
    _functional().save(path)
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == ["metadata.json", "config.json", "model.weights.h5"]  # Keras 3.15
        config = json.loads(archive.read("config.json"))
    assert set(config) >= {"class_name", "config", "compile_config", "build_config"}
    layers = config["config"]["layers"]
    assert [entry["name"] for entry in layers][1:] == ["hidden", layers[2]["name"]]
    history = layers[1]["inbound_nodes"][0]["args"][0]
    assert history["class_name"] == "__keras_tensor__"  # as Keras 3 writes a layer call's input
    assert history["config"]["keras_history"] == [layers[0]["name"], 0, 0]
    assert config["compile_config"]["loss"] == "sparse_categorical_crossentropy"


def test_load_restores_weights_and_compiled_state_so_fit_continues(tmp_path):
    model = _functional()
    model.fit(X, Y, verbose=0, shuffle=False)
    model.save(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    _same_predictions(loaded, model)
    assert type(loaded.optimizer).__name__ == "Adam" and int(loaded.optimizer.iterations) == 1
    model.fit(X, Y, epochs=2, verbose=0, shuffle=False)
    loaded.fit(X, Y, epochs=2, verbose=0, shuffle=False)  # Adam's moments come back on the first step
    for got, want in zip(loaded.get_weights(), model.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_a_file_an_earlier_version_wrote_with_model_weights_npz_loads(tmp_path):
    model = _functional()
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as new, zipfile.ZipFile(tmp_path / "old.keras", "w") as old:
        for name in new.namelist():
            old.writestr(name.replace("model.weights.h5", "model.weights.npz"), new.read(name))
    _same_predictions(tf.keras.models.load_model(tmp_path / "old.keras"), model)


def test_weights_keras_wrote_in_hdf5_are_refused_clearly(tmp_path):
    path = tmp_path / "keras.weights.h5"
    path.write_bytes(b"\x89HDF\r\n\x1a\n" + bytes(100))  # the HDF5 signature, as h5py writes
    with pytest.raises(ValueError, match="it is HDF5, as Keras writes weights"):
        _functional().load_weights(str(path))


def test_compile_false_leaves_the_model_uncompiled(tmp_path):
    _functional().save(tmp_path / "m.keras")
    assert tf.keras.models.load_model(tmp_path / "m.keras", compile=False).optimizer is None


def test_sequential_built_and_unbuilt_at_definition(tmp_path):
    for model in (tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)]),
                  tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dropout(0.5)])):
        model(X)
        model.save(tmp_path / "s.keras")
        loaded = tf.keras.models.load_model(tmp_path / "s.keras")
        assert type(loaded).__name__ == "Sequential"
        _same_predictions(loaded, model)


def test_nested_models_shared_layers_and_dict_inputs(tmp_path):
    inner_input = tf.keras.Input((3,))
    inner = tf.keras.Model(inner_input, tf.keras.layers.Dense(3)(inner_input), name="inner")
    shared = tf.keras.layers.Dense(3, name="shared")
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((3,), name="b")
    joined = tf.keras.layers.Add()([shared(shared(b)), inner(a)])
    model = tf.keras.Model({"a": a, "b": b}, [shared(a), joined])
    model.save(tmp_path / "n.keras")
    loaded = tf.keras.models.load_model(tmp_path / "n.keras")
    inputs = {"a": X, "b": 2 * X}
    for got, want in zip(loaded.predict(inputs, verbose=0), model.predict(inputs, verbose=0)):
        np.testing.assert_allclose(got, want, rtol=1e-6)


class _Scale(tf.keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, inputs):
        return inputs * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


def _scaled(layer):
    inputs = tf.keras.Input((3,))
    return tf.keras.Model(inputs, layer(tf.keras.layers.Dense(3)(inputs)))


def test_custom_objects_and_custom_object_scope(tmp_path):
    path = tmp_path / "c.keras"
    _scaled(_Scale(3.0)).save(path)
    with pytest.raises(TypeError, match="_Scale"):  # TF 2.21: TypeError (class could not be located)
        tf.keras.models.load_model(path)
    assert tf.keras.models.load_model(path, custom_objects={"_Scale": _Scale}).layers[-1].factor == 3.0
    with tf.keras.saving.custom_object_scope({"_Scale": _Scale}):
        assert tf.keras.models.load_model(path).layers[-1].factor == 3.0


def test_registered_classes_load_without_custom_objects(tmp_path):
    @tf.keras.saving.register_keras_serializable(package="tests")
    class Registered(_Scale):
        pass

    assert tf.keras.saving.get_registered_name(Registered) == "tests>Registered"  # Keras 3's format
    assert tf.keras.saving.get_registered_object("tests>Registered") is Registered
    _scaled(Registered(5.0)).save(tmp_path / "r.keras")
    loaded = tf.keras.models.load_model(tmp_path / "r.keras")
    assert type(loaded.layers[-1]) is Registered and loaded.layers[-1].factor == 5.0


def test_registered_subclassed_model_with_a_custom_loss(tmp_path):
    @tf.keras.saving.register_keras_serializable(package="tests")
    class Net(tf.keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = tf.keras.layers.Dense(units)

        def call(self, inputs):
            return self.dense(inputs)

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    model = Net(4)
    model.compile("sgd", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.25))
    model.fit(X, np.ones((8, 4), "float32"), verbose=0)
    model.save(tmp_path / "net.keras")
    loaded = tf.keras.models.load_model(tmp_path / "net.keras")
    assert isinstance(loaded, Net) and loaded.units == 4
    np.testing.assert_allclose(loaded(X).numpy(), model(X).numpy(), rtol=1e-6)
    assert isinstance(loaded.compiled_loss.losses[0], tf.keras.losses.BinaryCrossentropy)
    assert loaded.compiled_loss.losses[0].get_config()["label_smoothing"] == 0.25
    # (Keras 3.15's Huber config has no ``delta``: a Huber loss reloads with delta 1.0 there too)


@pytest.mark.parametrize("name", ["m", "m.h5x"])
def test_save_needs_the_keras_extension(tmp_path, name):
    # TF 2.21: ValueError "Invalid filepath extension for saving..."
    with pytest.raises(ValueError, match="keras"):
        _functional().save(tmp_path / name)


@pytest.mark.parametrize("name", ["m.h5", "m.hdf5"])
def test_legacy_hdf5_needs_h5py_and_names_the_keras_format(tmp_path, name):
    # TF 2.21 writes/reads these with h5py (an absl warning calls the format legacy); Keras 3 without
    # h5py raises ImportError "`save_model()` using h5 format requires h5py": companion has no h5py
    needs_h5py = r"^`save_model\(\)` using h5 format requires h5py.*my_model\.keras"
    with pytest.raises(ImportError, match=needs_h5py):
        _functional().save(tmp_path / name)
    (tmp_path / name).write_bytes(b"")
    with pytest.raises(ImportError, match=r"^`load_model\(\)` using h5 format requires h5py"):
        tf.keras.models.load_model(tmp_path / name)


def test_load_of_a_missing_file_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="File not found"):  # TF 2.21's class and words
        tf.keras.models.load_model(tmp_path / "nope.keras")


def test_overwrite_false_refuses_an_existing_file(tmp_path):
    model = _functional()
    model.save(tmp_path / "m.keras")
    with pytest.raises(FileExistsError):
        model.save(tmp_path / "m.keras", overwrite=False)


def test_get_config_from_config_rebuilds_a_functional_model_with_fresh_weights():
    model = _functional()
    clone = tf.keras.Model.from_config(model.get_config())
    assert [type(x).__name__ for x in clone.layers] == [type(x).__name__ for x in model.layers]
    assert clone.count_params() == model.count_params()
    assert not np.allclose(clone.get_weights()[0], model.get_weights()[0])

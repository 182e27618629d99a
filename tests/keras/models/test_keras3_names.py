"""Keras 3's automatic names and reprs (TF 2.21 / Keras 3.15): input_layer, functional, keras_tensor,
and the names a Sequential uses up each time it builds its inner Functional."""

import numpy as np
import pytest

import companion as tf

keras = tf.keras


@pytest.fixture(autouse=True)
def _fresh_session():
    keras.backend.clear_session()


def _uids():
    """The next functional, keras_tensor and input_layer numbers (each call uses one of each)."""
    uid = keras.backend.get_uid
    return uid("functional"), uid("keras_tensor"), uid("input_layer")


def test_inputs_tensors_and_models_are_numbered_per_kind():
    a, named, c = keras.Input((3,)), keras.Input((3,), name="named"), keras.Input((3,))
    assert (a.name, named.name, c.name) == ("keras_tensor", "named", "keras_tensor_1")
    dense = keras.layers.Dense(2)
    out = dense(a)
    assert out.name == "keras_tensor_2"
    model = keras.Model(a, out)
    assert model.name == "functional" and [layer.name for layer in model.layers] == ["input_layer", "dense"]
    assert model.get_layer("dense") is dense and model.get_layer(index=0).name == "input_layer"
    assert keras.Model(a, out, name="x").name == "x"  # a given name uses no number
    assert keras.Model(a, out).name == "functional_1"
    assert keras.Sequential().name == "sequential"

    class My(keras.Model):
        def call(self, x):
            return x

    assert (My().name, My().name) == ("my", "my_1")
    keras.backend.clear_session()
    assert (keras.Input((2,)).name, keras.Model(a, out).name, keras.layers.Dense(1).name) == \
        ("keras_tensor", "functional", "dense")
    assert keras.layers.InputLayer(shape=(3,)).name == "input_layer_1"  # after the Input above


def test_reprs():
    a = keras.Input((3,))
    dense = keras.layers.Dense(2)
    model = keras.Model(a, dense(a))
    assert repr(a) == ("<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, "
                       "name=keras_tensor>")
    assert repr(model.layers) == "[<InputLayer name=input_layer, built=True>, <Dense name=dense, built=True>]"
    assert repr(model) == "<Functional name=functional, built=True>"
    assert repr(keras.Sequential()) == "<Sequential name=sequential, built=False>"
    t = keras.Input((2, 3), batch_size=4, dtype="int32", name="t")
    assert str(t) == "<KerasTensor shape=(4, 2, 3), dtype=int32, sparse=False, ragged=False, name=t>"


def test_sequential_uses_a_functional_name_per_build():
    # (functional, keras_tensor, input_layer) after each step, as Keras 3.15 counts them
    assert _uids() == (1, 1, 1)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(2)])
    assert _uids() == (3, 5, 3)
    model.add(keras.layers.Dense(1))  # Keras rebuilds the whole stack
    assert _uids() == (5, 9, 4)
    model.pop()
    assert _uids() == (7, 12, 5)
    unbuilt = keras.Sequential([keras.layers.Dense(2)])
    assert _uids() == (8, 13, 6)
    unbuilt(np.ones((2, 3), "float32"))
    assert _uids() == (10, 16, 8)
    built = keras.Sequential([keras.layers.Dense(2)])
    built.build((None, 4))
    assert _uids() == (12, 19, 10)
    stepwise = keras.Sequential()
    stepwise.add(keras.Input((3,)))
    assert _uids() == (13, 21, 12)
    stepwise.add(keras.layers.Dense(2))
    assert _uids() == (15, 23, 13)
    x = keras.Input((3,))
    model.compile("sgd", "mse")
    y = model(x)
    assert (y.name, keras.Model(x, y).name) == ("keras_tensor_24", "functional_15")


def test_plot_model_without_pydot_raises_import_error():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    with pytest.raises(ImportError, match="pydot"):
        keras.utils.plot_model(model)
    with pytest.raises(ValueError, match="not yet been built"):
        keras.utils.plot_model(keras.Sequential([keras.layers.Dense(1)]))


def test_keras_tensor_shape_is_a_tuple_with_tensor_shape_methods():
    y = keras.layers.Dense(4)(keras.Input((3,)))
    assert repr(y.shape) == "(None, 4)" and isinstance(y.shape, tuple)  # Keras 3: a plain tuple
    assert y.shape == (None, 4) and y.shape[-1] == 4 and repr(y.shape[1:]) == "(4,)"
    assert y.shape.as_list() == [None, 4] and y.shape.rank == 2 and y.shape[1:].as_list() == [4]
    assert not y.shape.is_fully_defined()


def test_get_layer_errors_as_keras3():
    # TF 2.21's Keras 3.15 messages
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, name="d")])
    with pytest.raises(ValueError, match=r"^No such layer: nope\. Existing layers are: \['d'\]\.$"):
        model.get_layer("nope")
    with pytest.raises(ValueError, match=r"^Was asked to retrieve layer at index 5 but model only has 1 "
                                         r"layers\.$"):
        model.get_layer(index=5)
    with pytest.raises(ValueError, match=r"^Provide either a layer name or layer index at `get_layer`\.$"):
        model.get_layer()
    with pytest.raises(ValueError, match=r"^Provide only a layer name or a layer index\. Received: "
                                         r"index=0, name=d\.$"):
        model.get_layer("d", 0)

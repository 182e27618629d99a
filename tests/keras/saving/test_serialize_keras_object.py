"""`keras.saving.serialize_keras_object` / `deserialize_keras_object`: the dicts and errors Keras 3.15 gives
(observed under TF 2.21)."""

import numpy as np
import pytest

import companion as tf

keras = tf.keras
S = keras.saving.serialize_keras_object
D = keras.saving.deserialize_keras_object

_FLOAT32 = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
            "registered_name": None}
_FUNCTION = {"module": "builtins", "class_name": "function", "registered_name": "function"}


@keras.saving.register_keras_serializable(package="pk")
class _Holder(keras.layers.Layer):
    def __init__(self, units=2, inner=None, **kwargs):
        super().__init__(**kwargs)
        self.units, self.inner = units, inner

    def get_config(self):
        return {**super().get_config(), "units": self.units, "inner": self.inner}


@keras.saving.register_keras_serializable(package="pk", name="twice")
def _twice(x):
    return 2 * x


class _Plain:
    def __init__(self, a=1):
        self.a = a

    def get_config(self):
        return {"a": self.a}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _local(x):
    return x


def test_the_same_functions_under_utils():
    assert keras.utils.serialize_keras_object is S
    assert keras.utils.deserialize_keras_object is D


def test_built_in_objects_are_named_by_their_public_module():
    assert S(keras.initializers.Zeros()) == {"module": "keras.initializers", "class_name": "Zeros",
                                             "config": {}, "registered_name": None}
    assert S(keras.regularizers.L1L2(0.1, 0.2)) == {"module": "keras.regularizers", "class_name": "L1L2",
                                                    "config": {"l1": 0.1, "l2": 0.2}, "registered_name": None}
    assert S(keras.losses.MeanSquaredError()) == {
        "module": "keras.losses", "class_name": "MeanSquaredError",
        "config": {"name": "mean_squared_error", "reduction": "sum_over_batch_size"}, "registered_name": None}
    assert S(keras.metrics.Accuracy()) == {"module": "keras.metrics", "class_name": "Accuracy",
                                           "config": {"name": "accuracy", "dtype": "float32"},
                                           "registered_name": None}
    adam = S(keras.optimizers.Adam(learning_rate=0.01))
    assert (adam["module"], adam["class_name"], adam["registered_name"]) == ("keras.optimizers", "Adam", None)
    assert adam["config"]["learning_rate"] == pytest.approx(0.01)
    dense = S(keras.layers.Dense(3, activation="relu", name="d"))
    assert (dense["module"], dense["class_name"], dense["registered_name"]) == ("keras.layers", "Dense", None)
    assert dense["config"]["dtype"] == _FLOAT32 and dense["config"]["activation"] == "relu"
    assert "build_config" not in dense
    schedule = S(keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9))
    assert schedule["module"] == "keras.optimizers.schedules"


def test_models_carry_their_build_and_compile_configs():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="d1")], name="s")
    config = S(model)
    assert (config["module"], config["class_name"]) == ("keras", "Sequential")
    assert config["build_config"] == {"input_shape": (None, 2)}
    assert config["compile_config"] == {}
    assert config["config"]["layers"][1]["build_config"] == {"input_shape": (None, 2)}


def test_functions_are_stored_by_their_registered_name():
    assert S(keras.activations.relu) == {**_FUNCTION, "config": "relu"}
    assert S(keras.losses.mean_squared_error) == {**_FUNCTION, "config": "mean_squared_error"}
    assert S(_twice) == {**_FUNCTION, "config": "pk>twice"}
    assert S(_local) == {**_FUNCTION, "config": "_local"}


def test_python_values_and_special_values():
    assert [S(v) for v in (None, 3, 2.5, "abc", True)] == [None, 3, 2.5, "abc", True]
    assert S([1, "a", None]) == [1, "a", None] and S((1, 2)) == (1, 2)
    assert S({"a": 1, "b": [2, 3]}) == {"a": 1, "b": [2, 3]}
    assert S({"init": keras.initializers.Ones()})["init"]["class_name"] == "Ones"
    assert S(np.array([1.0, 2.0], dtype="float32")) == {"class_name": "__numpy__",
                                                       "config": {"value": [1.0, 2.0], "dtype": "float32"}}
    assert S(np.int64(5)) == 5 and S(np.array(3.0)) == 3.0
    assert S(tf.constant([1.0, 2.0])) == {"class_name": "__tensor__",
                                          "config": {"value": [1.0, 2.0], "dtype": "float32"}}
    assert S(tf.float32) == "float32"
    assert S(tf.TensorShape([None, 3])) == [None, 3] and S(tf.TensorShape(None)) is None
    assert S(slice(1, 3, None)) == {"class_name": "__slice__",
                                    "config": {"start": 1, "stop": 3, "step": None}}
    assert S(b"ab") == {"class_name": "__bytes__", "config": {"value": "ab"}}
    assert S(...) == {"class_name": "__ellipsis__", "config": {}}


def test_custom_classes_keep_their_module_and_registered_name():
    config = S(_Holder(3, inner=keras.initializers.Ones(), name="ml"))
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        __name__, "_Holder", "pk>_Holder")
    assert config["config"]["inner"] == {"module": "keras.initializers", "class_name": "Ones", "config": {},
                                         "registered_name": None}
    assert S(_Plain(5)) == {"module": __name__, "class_name": "_Plain", "config": {"a": 5},
                            "registered_name": "_Plain"}


def test_serialize_errors():
    with pytest.raises(TypeError, match=r"^Cannot serialize object \{1, 2\} of type <class 'set'>"):
        S({1, 2})

    class BadConfig:
        def get_config(self):
            return [1]

    with pytest.raises(TypeError, match=r"^The `get_config\(\)` method of .* should return a dict"):
        S(BadConfig())


def test_round_trips():
    dense = D(S(keras.layers.Dense(3, activation="relu", name="dd")))
    assert (type(dense).__name__, dense.units, dense.activation.__name__, dense.name, dense.built) == (
        "Dense", 3, "relu", "dd", False)
    assert D(S(keras.activations.relu)).__name__ == "relu"
    assert D(S(keras.losses.mean_squared_error)).__name__ == "mean_squared_error"
    assert D("relu") == "relu"
    assert D(S(keras.metrics.AUC(num_thresholds=10))).num_thresholds == 10
    assert float(D(S(keras.optimizers.Adam(learning_rate=0.5))).learning_rate) == 0.5
    assert D(S(keras.initializers.GlorotUniform(seed=3))).seed == 3
    assert D(S(keras.regularizers.L1L2(0.1, 0.2))).get_config() == {"l1": 0.1, "l2": 0.2}
    assert D(S(keras.losses.Huber(delta=2.0))).get_config() == {"name": "huber_loss",
                                                                "reduction": "sum_over_batch_size"}
    assert D(S(keras.mixed_precision.DTypePolicy("mixed_float16"))).name == "mixed_float16"
    schedule = D(S(keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9)))
    assert type(schedule).__name__ == "ExponentialDecay"
    array = D(S(np.array([1, 2], dtype="int32")))
    assert array.dtype == np.int32 and array.tolist() == [1, 2]
    tensor = D(S(tf.constant([1.5, 2.5])))
    assert tensor.dtype == tf.float32 and np.asarray(tensor).tolist() == [1.5, 2.5]
    assert (D(S(b"xy")), D(S(slice(1, None, 2))), D(S(...))) == (b"xy", slice(1, None, 2), Ellipsis)
    assert (D(3), D("abc"), D([1, "relu", None]), D((1, 2))) == (3, "abc", [1, "relu", None], [1, 2])
    assert D({"a": 1, "b": (1, 2)}) == {"a": 1, "b": [1, 2]}
    assert D({"class_name": "Dense"}) == {"class_name": "Dense"}  # no 'config': a plain dict


def test_custom_objects_registered_scoped_or_given():
    holder = D(S(_Holder(3, inner=keras.initializers.Ones(), name="ml")))
    assert (type(holder), holder.units, holder.name) == (_Holder, 3, "ml")
    assert holder.inner["class_name"] == "Ones"  # from_config gets the serialized config, as in Keras
    assert D(S(_twice)) is _twice
    with pytest.raises(TypeError, match=r"^Could not locate class '_Plain'. Make sure custom classes and "
                                        r"functions are decorated with"):
        D(S(_Plain(5)))
    assert D(S(_Plain(5)), custom_objects={"_Plain": _Plain}).a == 5
    with keras.saving.custom_object_scope({"_Plain": _Plain}):
        assert D(S(_Plain(6))).a == 6
    with keras.utils.CustomObjectScope({"_Plain": _Plain}):
        assert keras.saving.get_registered_object("_Plain") is _Plain
    with pytest.raises(TypeError, match=r"^Could not locate function '_local'"):
        D(S(_local))
    assert D(S(_local), custom_objects={"_local": _local}) is _local
    assert D("_local", custom_objects={"_local": _local}) is _local


def test_registry_names():
    assert keras.saving.get_registered_name(_Holder) == "pk>_Holder"
    assert keras.saving.get_registered_name(_twice) == "pk>twice"
    assert keras.saving.get_registered_name(_Plain) == "_Plain"
    assert keras.saving.get_registered_object("pk>_Holder") is _Holder
    assert keras.saving.get_registered_object("nope") is None
    with pytest.raises(ValueError, match=r"^Cannot register a class that does not have a get_config"):
        keras.saving.register_keras_serializable()(type("NoConfig", (), {}))


def test_registering_a_taken_name_replaces_the_object():
    register = keras.saving.register_keras_serializable(package="pk_again")
    first = register(type("Same", (), {"get_config": dict}))
    second = register(type("Same", (), {"get_config": dict}))
    assert first is not second and keras.saving.get_registered_object("pk_again>Same") is second


def test_lambdas_need_unsafe_mode():
    with pytest.warns(UserWarning, match="The object being serialized includes a `lambda`"):
        config = S(lambda x: x + 1)
    assert config["class_name"] == "__lambda__"
    with pytest.raises(ValueError, match=r"^Requested the deserialization of a Python lambda"):
        D(config)
    assert D(config, safe_mode=False)(2) == 3


def test_deserialize_errors():
    with pytest.raises(TypeError, match=r"^Could not locate class 'Foo'"):
        D({"module": None, "class_name": "Foo", "config": {}, "registered_name": "Foo"})
    with pytest.raises(ValueError, match=r"^Could not deserialize 'keras.layers.Foo' because it is not a "
                                         "KerasSaveable subclass"):
        D({"module": "keras.layers", "class_name": "Foo", "config": {}, "registered_name": None})
    with pytest.raises(TypeError, match=r"^Could not locate function 'nofn'"):
        D({**_FUNCTION, "config": "nofn"})
    with pytest.raises(TypeError, match=r"^Expected 'config' to be a non-null str"):
        D({**_FUNCTION, "config": 3})
    with pytest.raises(TypeError, match=r"^Expected 'config' to be a dict for Dense"):
        D({"module": "keras.layers", "class_name": "Dense", "config": 3, "registered_name": None})
    with pytest.raises(TypeError, match=r"^Could not parse config: 3j"):
        D(3j)
    missing = keras.saving.register_keras_serializable(package="pk_nofc")(
        type("NoFromConfig", (), {"get_config": dict}))
    with pytest.raises(TypeError, match=r"^Unable to reconstruct an instance of 'NoFromConfig' because the "
                                        r"class is missing a `from_config\(\)` method"):
        D({"class_name": "NoFromConfig", "config": {}, "registered_name": "pk_nofc>NoFromConfig",
           "module": "whatever"})
    assert missing is keras.saving.get_registered_object("pk_nofc>NoFromConfig")

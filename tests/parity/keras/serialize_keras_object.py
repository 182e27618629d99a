"""keras.utils.serialize_keras_object / deserialize_keras_object: built-in and custom objects, plain and
special values, the registry, custom objects in a scope or given, and the errors."""
import warnings

import numpy as np
import tensorflow as tf

keras = tf.keras
S = keras.utils.serialize_keras_object
D = keras.utils.deserialize_keras_object
print(callable(S), callable(D))


@keras.utils.register_keras_serializable(package="pk")
class Holder(keras.layers.Layer):
    def __init__(self, units=2, inner=None, **kwargs):
        super().__init__(**kwargs)
        self.units, self.inner = units, inner

    def get_config(self):
        return {**super().get_config(), "units": self.units, "inner": self.inner}


@keras.utils.register_keras_serializable(package="pk", name="twice")
def twice(x):
    return 2 * x


class Plain:
    def __init__(self, a=1):
        self.a = a

    def get_config(self):
        return {"a": self.a}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def local_fn(x):
    return x


for obj in (keras.layers.Dense(3, activation="relu", name="d"), keras.activations.relu,
            keras.losses.mse, keras.losses.MeanSquaredError(), keras.metrics.AUC(),
            keras.optimizers.Adam(learning_rate=0.01), keras.initializers.GlorotUniform(seed=1),
            keras.regularizers.L1L2(0.1, 0.2), keras.constraints.MaxNorm(2.0),
            keras.optimizers.SGD(keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9)),
            keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="d1")], name="s"),
            None, 3, 2.5, "abc", True, [1, "a", None], (1, 2), {"a": 1, "b": [2, 3]},
            np.array([1.0, 2.0], dtype="float32"), np.int64(5), tf.float32, tf.TensorShape([None, 3]),
            tf.constant([1.0, 2.0]), slice(1, 3, None), b"ab", ...,
            Holder(3, inner=keras.initializers.Ones(), name="ml"), twice, Plain(5), local_fn):
    print(S(obj))

print(keras.utils.get_registered_name(Holder), keras.utils.get_registered_name(twice),
      keras.utils.get_registered_name(Plain), keras.utils.get_registered_object("pk>Holder") is Holder)
holder = D(S(Holder(3, inner=keras.initializers.Ones(), name="ml")))
print(type(holder).__name__, holder.units, holder.name, holder.inner)
print(D(S(twice)) is twice, D(S(local_fn), custom_objects={"local_fn": local_fn}) is local_fn)
print(D(S(Plain(5)), custom_objects={"Plain": Plain}).a)
with keras.utils.custom_object_scope({"Plain": Plain}):
    print(D(S(Plain(6))).a, keras.utils.get_registered_object("Plain") is Plain)
dense = D(S(keras.layers.Dense(3, activation="relu", name="dd")))
print(type(dense).__name__, dense.units, dense.activation.__name__, dense.name, dense.built)
print(D(S(keras.activations.relu)).__name__, D(S(keras.losses.mse)).__name__, D("relu"))
print(D(S(keras.metrics.AUC(num_thresholds=10))).num_thresholds,
      float(D(S(keras.optimizers.Adam(learning_rate=0.5))).learning_rate),
      D(S(keras.initializers.GlorotUniform(seed=3))).seed,
      D(S(keras.regularizers.L1L2(0.1, 0.2))).get_config(),
      D(S(keras.losses.Huber(delta=2.0))).get_config(), D(S(keras.constraints.MaxNorm(2.0))).get_config())
model = D(S(keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="d1")], name="s")))
print(type(model).__name__, model.name, model.built, [layer.name for layer in model.layers])
print(repr(D(S(np.array([1, 2], dtype="int32")))), D(S(tf.constant([1.5, 2.5]))).numpy().tolist())
print(D(S(b"xy")), D(S(slice(1, None, 2))), D(S(...)), D(3), D([1, "relu", None]), D((1, 2)))
print(D({"a": 1, "b": (1, 2)}), D({"class_name": "Dense"}))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    lam = S(lambda x: x + 1)
print(lam["class_name"], [str(w.message)[:48] for w in caught], D(lam, safe_mode=False)(2))

for label, bad in [("lambda", lambda: D(lam)),
                   ("plain", lambda: D(S(Plain(5)))),
                   ("local_fn", lambda: D(S(local_fn))),
                   ("unknown", lambda: D({"module": None, "class_name": "Foo", "config": {},
                                          "registered_name": "Foo"})),
                   ("unknown keras", lambda: D({"module": "keras.layers", "class_name": "Foo", "config": {},
                                                "registered_name": None})),
                   ("fn config", lambda: D({"module": "builtins", "class_name": "function", "config": 3,
                                            "registered_name": "function"})),
                   ("class config", lambda: D({"module": "keras.layers", "class_name": "Dense", "config": 3,
                                               "registered_name": None})),
                   ("complex", lambda: D(3j)),
                   ("set", lambda: S({1, 2})),
                   ("no get_config", lambda: keras.utils.register_keras_serializable()(type("N", (), {})))]:
    try:
        bad()
        print(label, "no error")
    except (TypeError, ValueError) as e:
        print(label, type(e).__name__)

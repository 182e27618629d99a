import tensorflow as tf

L = tf.keras.layers


def keys(config):
    names = ("module", "class_name", "registered_name", "build_config", "compile_config")
    return {k: config[k] for k in names if k in config}


seq = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2, kernel_initializer="ones", name="d"),
                           L.Dropout(0.1, name="dr")], name="seq")
config = L.serialize(seq)
print(sorted(config))
print(keys(config))
print(config["config"]["layers"][1])
again = L.deserialize(config)
print(again.name, [layer.name for layer in again.layers], again.built, [w.shape for w in again.weights])

unbuilt = tf.keras.Sequential([L.Dense(2, name="u")], name="unbuilt")
print(keys(L.serialize(unbuilt)))
unbuilt.build((None, 5))
print(keys(L.serialize(unbuilt)), unbuilt.get_build_config())

inputs = tf.keras.Input((3,), name="inp")
outputs = L.Dense(2, name="dd")(inputs)
functional = tf.keras.Model(inputs, outputs, name="func")
config = L.serialize(functional)
print(sorted(config))
print(keys(config))
print(config["config"]["layers"][1]["inbound_nodes"])
print(functional.get_build_config(), functional.get_compile_config())
again = L.deserialize(config)
print(again.name, [layer.name for layer in again.layers], again(tf.ones((1, 3))).shape)

nested_in = tf.keras.Input((3,), name="n_in")
inner = tf.keras.Sequential([L.Dense(2, name="inner")], name="inner_seq")
nested = tf.keras.Model(nested_in, inner(nested_in))
print([keys(entry) for entry in L.serialize(nested)["config"]["layers"]])

seq.compile("sgd", "mse", metrics=["mae"], loss_weights=[2.0], steps_per_execution=2)
compiled = L.serialize(seq)["compile_config"]
print({k: v for k, v in compiled.items() if k != "optimizer"}, compiled["optimizer"]["class_name"])
print(seq.jit_compile, seq.get_compile_config() == compiled)
restored = L.deserialize(L.serialize(seq))
print(restored.optimizer is None)
restored.compile_from_config(compiled)
print(type(restored.optimizer).__name__, restored.loss, restored.get_compile_config()["steps_per_execution"])
x, y = tf.ones((4, 3)), tf.zeros((4, 2))
print(round(float(seq.evaluate(x, y, verbose=0)[0]), 4))


class Sub(tf.keras.Model):
    def call(self, x):
        return x


print(keys(L.serialize(Sub(name="sub"))))

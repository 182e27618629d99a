"""Keras 3's Sequential.get_config: trainable, dtype, the InputLayer first in `layers` once the input
shape is known, build_config on built layers that have a build of their own, build_input_shape; and
from_config rebuilding it (also from a config without the InputLayer entry)."""
import json

import numpy as np
import tensorflow as tf

keras = tf.keras


def show(title, config):
    print(title, json.dumps(config, default=str))


model = keras.Sequential([keras.Input(shape=(4,), name="inp"), keras.layers.Dense(3, name="d1"),
                          keras.layers.Dropout(0.5, name="dr"), keras.layers.Flatten(name="fl")], name="seq")
show("with Input", model.get_config())
unbuilt = keras.Sequential([keras.layers.Dense(3, name="d2")], name="seq2")
show("unbuilt", unbuilt.get_config())
unbuilt(np.ones((2, 5), "float32"))
show("called", unbuilt.get_config())
show("empty", keras.Sequential(name="seq3").get_config())
ints = keras.Sequential([keras.Input(batch_shape=(8, 4), dtype="int32", name="ids"),
                         keras.layers.Embedding(10, 2, name="e")], name="seq4")
show("int input", ints.get_config())
show("dense built", keras.layers.serialize(model.layers[0]))
show("dense unbuilt", keras.layers.serialize(keras.layers.Dense(2, name="dd")))
show("input layer", keras.layers.InputLayer(shape=(3,), name="il").get_config())

again = keras.Sequential.from_config(model.get_config())
print([layer.name for layer in again.layers], again.built, again.input_shape, again.output_shape)
show("round trip", again.get_config())
again2 = keras.Sequential.from_config(unbuilt.get_config())
print([layer.name for layer in again2.layers], again2.built, again2.input_shape)
config = model.get_config()
config["layers"] = config["layers"][1:]  # no InputLayer entry: build_input_shape gives the shape
again3 = keras.Sequential.from_config(config)
print([layer.name for layer in again3.layers], again3.built, again3.input_shape)
print(len(again3.weights), [tuple(w.shape) for w in again3.weights])

inputs = keras.Input(shape=(4,), name="x")
functional = keras.Model(inputs, keras.layers.Dense(2, name="fd")(inputs), name="func")
show("functional", functional.get_config())

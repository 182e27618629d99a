"""Model.to_json and keras.models.model_from_json: config, build and compile configs round-trip."""
import json

import tensorflow as tf

keras = tf.keras
dense = keras.layers.Dense(2, name="d", kernel_initializer="ones")
model = keras.Sequential([keras.layers.Input((3,)), dense], name="seq")
print(model.compiled)
model.compile(optimizer="adam", loss="mse", metrics=["mae"], run_eagerly=True)
text = model.to_json()
config = json.loads(text)
print(type(text).__name__, sorted(config), config["class_name"])
print(config["build_config"], config["compile_config"]["loss"], config["compile_config"]["metrics"])
print(list(config["compile_config"]), config["compile_config"]["run_eagerly"])
print(model.get_compile_config() == config["compile_config"])
again = keras.models.model_from_json(text)
print(type(again).__name__, again.name, [layer.name for layer in again.layers], again.built, again.compiled)
print(type(again.optimizer).__name__, again.loss, again.run_eagerly, len(again.weights))
print(keras.models.model_from_json(model.to_json(indent=2)).name, len(model.to_json(indent=2)) > len(text))
for bad in ("{bad", '{"class_name": "Nope", "config": {}}'):
    try:
        keras.models.model_from_json(bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, str(e).split(".")[0])

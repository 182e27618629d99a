"""A .keras round trip of a model with a registered layer, loss and metric (no custom_objects needed), and
of an unregistered layer and loss (custom_objects or a scope needed): predictions, compile state, errors."""
import json
import zipfile

import numpy as np
import tensorflow as tf

keras = tf.keras


@keras.utils.register_keras_serializable(package="rt")
class Scale(keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, x):
        return x * self.w * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@keras.utils.register_keras_serializable(package="rt")
def abs_loss(y_true, y_pred):
    return keras.ops.mean(keras.ops.abs(y_true - y_pred), axis=-1)


@keras.utils.register_keras_serializable(package="rt")
class MaxErr(keras.metrics.Metric):
    def __init__(self, name="max_err", **kwargs):
        super().__init__(name=name, **kwargs)
        self.m = self.add_weight(name="m", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.m.assign(keras.ops.maximum(self.m, keras.ops.max(keras.ops.abs(y_true - y_pred))))

    def result(self):
        return self.m

    def reset_state(self):
        self.m.assign(0.0)


class AddOne(keras.layers.Layer):
    def call(self, x):
        return x + 1.0


def square_loss(y_true, y_pred):
    return keras.ops.mean(keras.ops.square(y_true - y_pred), axis=-1)


x = np.arange(12, dtype="float32").reshape(4, 3) / 10
y = np.arange(8, dtype="float32").reshape(4, 2) / 10
inputs = keras.Input((3,))
outputs = keras.layers.Dense(2, kernel_initializer="ones", name="dense")(Scale(3.0, name="scale")(inputs))
model = keras.Model(inputs, outputs)
model.compile(optimizer=keras.optimizers.SGD(0.01), loss=abs_loss, metrics=[MaxErr(), "mae"])
model.fit(x, y, epochs=2, verbose=0)
model.save("a.keras")
config = json.loads(zipfile.ZipFile("a.keras").read("config.json"))
print(config["compile_config"])
print([(layer["class_name"], layer["registered_name"]) for layer in config["config"]["layers"]])

loaded = keras.models.load_model("a.keras")
print(np.round(loaded.predict(x, verbose=0), 4).tolist())
print(np.allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0)))
print(loaded.loss is abs_loss, type(loaded.optimizer).__name__, int(loaded.optimizer.iterations))
print(round(float(loaded.optimizer.learning_rate), 4), loaded.metrics_names, loaded.compiled)
print([round(v, 4) for v in loaded.evaluate(x, y, verbose=0)])
print([round(v, 4) for v in model.evaluate(x, y, verbose=0)])
print([type(layer).__name__ for layer in loaded.layers], loaded.get_layer("scale").factor)
history = loaded.fit(x, y, epochs=1, verbose=0).history
print({k: round(v[0], 4) for k, v in sorted(history.items())})
bare = keras.models.load_model("a.keras", compile=False)
print(bare.compiled, np.allclose(bare.predict(x, verbose=0), model.predict(x, verbose=0)))

inputs = keras.Input((3,))
unregistered = keras.Model(inputs, AddOne(name="u")(inputs))
unregistered.compile(optimizer="adam", loss="mse")
unregistered.save("u.keras")
try:
    keras.models.load_model("u.keras")
    print("loaded without custom_objects")
except TypeError as e:
    print(type(e).__name__, "could not be deserialized properly" in str(e),
          "Could not locate class" in str(e))
revived = keras.models.load_model("u.keras", custom_objects={"AddOne": AddOne})
print(revived.predict(x[:1], verbose=0).tolist())
with keras.utils.custom_object_scope({"AddOne": AddOne}):
    print(type(keras.models.load_model("u.keras").layers[1]).__name__)

inputs = keras.Input((3,))
custom_loss = keras.Model(inputs, keras.layers.Dense(2, name="dd")(inputs))
custom_loss.compile(optimizer="adam", loss=square_loss, metrics=["mae"])
custom_loss.save("l.keras")
print(json.loads(zipfile.ZipFile("l.keras").read("config.json"))["compile_config"]["loss"])
try:
    keras.models.load_model("l.keras")
    print("loaded without custom_objects")
except TypeError as e:
    print(type(e).__name__, str(e).startswith("Could not locate function 'square_loss'"))
print(keras.models.load_model("l.keras", custom_objects={"square_loss": square_loss}).loss is square_loss)

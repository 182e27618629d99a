"""Keras 3's Pipeline (layers chained as one layer) and Wrapper (TimeDistributed's base class)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
layers = keras.layers
print(issubclass(layers.TimeDistributed, layers.Wrapper), issubclass(layers.Bidirectional, layers.Wrapper))
wrapper = layers.Wrapper(layers.Dense(2, name="d"), name="w")
wrapper.build((None, 3))
print(wrapper.layer.built, len(wrapper.weights), wrapper.get_config()["layer"]["class_name"])
print(layers.Wrapper.from_config(wrapper.get_config()).layer.units)
try:
    layers.Wrapper(3)
except ValueError as e:
    print("ValueError", e)
init = keras.initializers.GlorotUniform(seed=1)
pipeline = layers.Pipeline([layers.Rescaling(2.0), layers.Dense(3, kernel_initializer=init),
                            layers.Dropout(0.5)], name="pp")
x = np.arange(6, dtype="float32").reshape(2, 3)
print(np.round(pipeline(x, training=False).numpy(), 5))
print(sorted(pipeline.get_config()), [c["class_name"] for c in pipeline.get_config()["layers"]])
print(len(pipeline.weights), len(pipeline.layers))
print([type(layer).__name__ for layer in layers.Pipeline.from_config(pipeline.get_config()).layers])
inputs = keras.Input((3,))
model = keras.Model(inputs, layers.Pipeline([layers.Dense(4, kernel_initializer="ones"),
                                             layers.Dense(1, kernel_initializer="ones")])(inputs))
print(model.output_shape, model.predict(x, verbose=0).tolist())
model.compile("sgd", "mse")
model.fit(x, np.ones((2, 1)), verbose=0)
print(len(model.trainable_weights))

import tensorflow as tf

L = tf.keras.layers
# Keras 3 builds the weightless layers in __init__; layers with weights (and a few weightless
# ones: Flatten, Permute, RepeatVector, Lambda, Cropping, ...) build on their first call.
made = {
    "Dropout": L.Dropout(0.2), "SpatialDropout2D": L.SpatialDropout2D(0.2),
    "AlphaDropout": L.AlphaDropout(0.1), "GaussianNoise": L.GaussianNoise(0.1),
    "GaussianDropout": L.GaussianDropout(0.1), "Identity": L.Identity(),
    "Activation": L.Activation("relu"), "ReLU": L.ReLU(), "LeakyReLU": L.LeakyReLU(), "ELU": L.ELU(),
    "Softmax": L.Softmax(), "Masking": L.Masking(), "Reshape": L.Reshape((2, 2)),
    "UnitNormalization": L.UnitNormalization(), "ActivityRegularization": L.ActivityRegularization(),
    "MaxPooling2D": L.MaxPooling2D(), "AveragePooling1D": L.AveragePooling1D(2),
    "GlobalAveragePooling1D": L.GlobalAveragePooling1D(), "GlobalMaxPooling3D": L.GlobalMaxPooling3D(),
    "Flatten": L.Flatten(), "Permute": L.Permute((2, 1)), "RepeatVector": L.RepeatVector(2),
    "Lambda": L.Lambda(lambda x: x), "Cropping1D": L.Cropping1D(), "UpSampling2D": L.UpSampling2D(),
    "ZeroPadding2D": L.ZeroPadding2D(), "Rescaling": L.Rescaling(2.0), "PReLU": L.PReLU(),
    "Dense": L.Dense(2), "Conv2D": L.Conv2D(2, 3), "BatchNormalization": L.BatchNormalization(),
    "Embedding": L.Embedding(5, 2), "LSTM": L.LSTM(2), "Add": L.Add(), "Layer": L.Layer(),
}
for name, layer in made.items():
    print(name, layer.built, len(layer.weights), repr(layer).split(", ")[1])
print("count_params", L.Dropout(0.5).count_params(), L.GlobalMaxPooling2D().count_params())
try:
    L.Flatten().count_params()
except ValueError as e:
    print("Flatten count_params", type(e).__name__)
try:
    L.AveragePooling2D()
except TypeError as e:
    print("AveragePooling2D()", type(e).__name__)

# a call never builds them, so they have no build_config; an explicit build() records one
drop = L.Dropout(0.2)
drop(tf.ones((2, 3)))
print("after a call", drop.built, drop.get_build_config())
drop.build((None, 3))
print("after build", drop.get_build_config())


class LoudDropout(L.Dropout):  # a subclass with its own build() is built by its first call
    def build(self, input_shape):
        print("LoudDropout.build", input_shape)
        super().build(input_shape)


class LoudReshape(L.Reshape):  # Reshape is built in __init__ even so: its build() never runs
    def build(self, input_shape):
        print("LoudReshape.build", input_shape)


loud = LoudDropout(0.1)
print("LoudDropout built", loud.built)
loud(tf.ones((2, 3)))
print("LoudDropout", loud.built, loud.get_build_config())
reshape = LoudReshape((3, 1))
print("LoudReshape built", reshape.built, reshape(tf.ones((2, 3))).shape, reshape.get_build_config())

model = tf.keras.Sequential([L.Dense(2), L.Dropout(0.2), L.Flatten(), L.ReLU(), L.Reshape((2, 1))])
print("model", model.built, [layer.built for layer in model.layers])
model.summary()
inputs = tf.keras.Input((4,))
outputs = L.Reshape((3, 1))(L.Dropout(0.1)(L.Dense(3)(inputs)))
functional = tf.keras.Model(inputs, outputs)
print([sorted(entry) for entry in functional.get_config()["layers"]])

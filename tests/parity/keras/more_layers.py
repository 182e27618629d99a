"""Activation, merge and rearranging layers: values, shapes in a model, configs."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
x = np.linspace(-3, 3, 24).reshape(1, 2, 3, 4).astype("float32")


def show(name, value):
    print(name, np.round(np.asarray(value), 4).tolist())


show("relu", L.ReLU(max_value=2.0, negative_slope=0.1)(x))
show("leaky", L.LeakyReLU(negative_slope=0.2)(x))
show("elu", L.ELU(0.5)(x))
show("prelu", L.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.25), shared_axes=[1, 2])(x))
show("softmax_axes", L.Softmax(axis=[1, 2])(x))
show("softmax_mask", L.Softmax()(x[0, 0], mask=np.array([[True, False, True, True]] * 3)))
for cls in [L.Subtract, L.Multiply, L.Average, L.Maximum, L.Minimum]:
    show(cls.__name__, cls()([x, x[:, :, :, ::-1] * 2]))
show("permute", L.Permute((3, 1, 2))(x))
show("repeat", L.RepeatVector(2)(x[0, 0]))
show("up1d", L.UpSampling1D(3)(x[0]))
show("up2d", L.UpSampling2D((2, 1))(x))
show("up2d_bilinear", L.UpSampling2D(2, interpolation="bilinear")(x))
show("zp2d", L.ZeroPadding2D(((1, 0), (2, 1)))(x))
show("crop2d", L.Cropping2D(((1, 0), (0, 1)))(x))
model = tf.keras.Sequential([tf.keras.Input((4, 4, 2)), L.ZeroPadding2D(1), L.Cropping2D(((0, 1), (1, 0))),
                             L.UpSampling2D(), L.Permute((3, 1, 2)), L.Reshape((-1,)), L.RepeatVector(2),
                             L.Flatten(), L.Dense(3), L.LeakyReLU(), L.PReLU(), L.Softmax()])
print([tuple(layer.output.shape) for layer in model.layers], model.count_params())
for layer in [L.ZeroPadding2D(((1, 0), (2, 1))), L.Cropping1D(1), L.UpSampling2D(2), L.Permute((2, 1)),
              L.RepeatVector(4), L.ReLU(2.0), L.LeakyReLU(0.1), L.ELU(0.5), L.Softmax(1)]:
    config = layer.get_config()
    kept = sorted((k, v) for k, v in config.items() if k not in ("name", "dtype", "trainable"))
    print(type(layer).__name__, kept)

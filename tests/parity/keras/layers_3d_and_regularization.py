"""3-D pooling, padding, cropping and upsampling layers; ActivityRegularization, UnitNormalization,
ThresholdedReLU, AlphaDropout, SpatialDropout3D and the Convolution aliases."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
v = tf.reshape(tf.range(2 * 4 * 4 * 4 * 3, dtype=tf.float32), [2, 4, 4, 4, 3]) / 10.0
layers = [L.MaxPooling3D(), L.AveragePooling3D(pool_size=(2, 2, 1), padding="same"),
          L.GlobalAveragePooling3D(), L.GlobalMaxPooling3D(keepdims=True), L.UpSampling3D(size=(1, 2, 1)),
          L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), L.Cropping3D(1), L.MaxPool3D(pool_size=3, strides=1),
          L.GlobalMaxPool3D(data_format="channels_first")]
for layer in layers:
    y = layer(v)
    print(type(layer).__name__, y.shape, np.round(float(tf.reduce_sum(y)), 2))
    print(layer.compute_output_shape(v.shape))
    config = layer.get_config()
    config.pop("name")
    config.pop("dtype", None)
    print(sorted(config.items()))
x = tf.constant([[1.0, -2.0], [3.0, 0.5]])
regularization = L.ActivityRegularization(l1=0.5, l2=0.1)
print(regularization(x).numpy().tolist(), [round(float(loss), 5) for loss in regularization.losses])
print(sorted(k for k in regularization.get_config() if k not in ("name", "dtype")))
print(np.round(L.UnitNormalization()(x).numpy(), 5).tolist())
print(np.round(L.UnitNormalization(axis=[0, 1])(x).numpy(), 5).tolist())
print(np.round(L.UnitNormalization()(tf.zeros([1, 2])).numpy(), 5).tolist())
print(np.abs(L.ThresholdedReLU(theta=0.8)(x).numpy()).tolist(), L.ThresholdedReLU().get_config()["theta"])
alpha = L.AlphaDropout(0.3)
print(alpha(x).numpy().tolist())
y = alpha(tf.ones([20000]), training=True).numpy()
print(len(set(np.round(y, 4).tolist())), round(float(y.mean()), 1))
print(L.SpatialDropout3D(0.5)(v, training=True).shape, L.Convolution2D(2, 3)(tf.ones([1, 5, 5, 1])).shape)
print(L.deserialize(L.serialize(L.ZeroPadding3D(2))).get_config()["padding"])

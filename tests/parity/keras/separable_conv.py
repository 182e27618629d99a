"""DepthwiseConv1D/2D, SeparableConv1D/2D (strides, padding, dilation, depth multipliers, weights,
configs) and tf.nn.separable_conv2d."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.default_rng(2)
x = tf.constant(rng.normal(size=(2, 7, 6, 3)).astype("float32"))
s = tf.constant(rng.normal(size=(2, 9, 3)).astype("float32"))


def fix(layer):
    for i, w in enumerate(layer.weights):
        w.assign(np.reshape(np.cos(np.arange(np.prod(w.shape)) * (i + 1) * 0.3), w.shape).astype("float32"))


cases = [(L.DepthwiseConv2D(3), x),
         (L.DepthwiseConv2D((2, 3), strides=2, padding="same", depth_multiplier=2), x),
         (L.DepthwiseConv2D(3, dilation_rate=2, use_bias=False), x), (L.SeparableConv2D(4, 3), x),
         (L.SeparableConv2D(5, (3, 2), strides=2, padding="same", depth_multiplier=2,
                            activation="relu"), x),
         (L.DepthwiseConv1D(3, depth_multiplier=2), s), (L.SeparableConv1D(4, 2, padding="same"), s)]
for layer, inp in cases:
    layer(inp)
    fix(layer)
    y = layer(inp)
    print(type(layer).__name__, y.shape, layer.compute_output_shape(inp.shape))
    print([(w.name, tuple(w.shape)) for w in layer.weights])
    print(np.round(y.numpy()[1, 1].ravel()[:6], 4).tolist(), round(float(tf.reduce_sum(y)), 2))
    print(sorted(k for k in layer.get_config() if k not in ("name", "dtype")))
out = tf.nn.separable_conv2d(x, tf.ones([3, 3, 3, 2]), tf.ones([1, 1, 6, 4]) * 0.1, strides=[1, 1, 1, 1],
                             padding="VALID")
print(out.shape, round(float(tf.reduce_sum(out)), 3))

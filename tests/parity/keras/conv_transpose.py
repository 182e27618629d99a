"""Conv2DTranspose layers (strides, padding, output_padding) and conv2d_transpose (TF's CPU kernels
raise for a dilated transposed convolution's gradient, so none is here)."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.normal(size=(2, 5, 5, 3)).astype("float32")
for kwargs in [dict(filters=4, kernel_size=3, strides=2),
               dict(filters=2, kernel_size=4, strides=2, padding="same"),
               dict(filters=2, kernel_size=3, strides=2, output_padding=1)]:
    layer = tf.keras.layers.Conv2DTranspose(**kwargs)
    layer.build(x.shape)
    layer.kernel.assign(rng.normal(size=layer.kernel.shape).astype("float32"))
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(layer(v) ** 2)
    grads = tape.gradient(out, [v, layer.kernel])
    print(tuple(layer(x).shape), round(float(out), 2), [round(float(tf.reduce_sum(g)), 2) for g in grads])
out = tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([3, 3, 1, 1]), [1, 4, 4, 1], 2, "SAME")
print(out.numpy()[0, :, :, 0].tolist())

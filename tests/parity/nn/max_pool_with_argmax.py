"""nn.max_pool_with_argmax: pooled values, flat indices (with and without batch), gradient, errors."""
import numpy as np
import tensorflow as tf

x = tf.constant(np.arange(2 * 5 * 5 * 2, dtype=np.float32).reshape(2, 5, 5, 2) % 7)
o, a = tf.nn.max_pool_with_argmax(x, ksize=2, strides=2, padding="SAME")
print(o.shape, a.dtype.name)
print(o.numpy()[1, :, :, 1])
print(a.numpy()[1, :, :, 1])
o, a = tf.nn.max_pool_with_argmax(x, ksize=[1, 3, 3, 1], strides=[1, 1, 2, 1], padding="VALID",
                                  include_batch_in_index=True, output_dtype=tf.int32)
print(o.shape, a.dtype.name)
print(a.numpy()[1, :, :, 0])
t = tf.constant([[[[1.0], [1.0]], [[1.0], [1.0]]]])
print(tf.nn.max_pool_with_argmax(t, 2, 2, "VALID")[1].numpy().ravel())
v = tf.Variable(x)
with tf.GradientTape() as g:
    o, a = tf.nn.max_pool_with_argmax(v, 3, 2, "SAME")
    loss = tf.reduce_sum(o * o)
print(g.gradient(loss, v).numpy()[0, :, :, 0])
for bad in [lambda: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME", data_format="NCHW"),
            lambda: tf.nn.max_pool_with_argmax(x[0], 2, 2, "SAME"),
            lambda: tf.nn.max_pool_with_argmax(x, 2, 2, "FULL"),
            lambda: tf.nn.max_pool_with_argmax(tf.cast(x, tf.int32), 2, 2, "SAME"),
            lambda: tf.nn.max_pool_with_argmax(x, [1, 2, 2, 2], 2, "SAME")]:
    try:
        r = bad()
        print("ok", r[0].dtype.name)
    except Exception as e:
        print(type(e).__name__)

import tensorflow as tf

x = tf.constant([-1.0, 300.0, 70000.0, -129.5, 3e9, 1e20, float("nan"), float("inf")])
for dtype in [tf.int8, tf.uint8, tf.int16, tf.uint16, tf.int32, tf.uint32, tf.int64, tf.uint64]:
    print(dtype.name, tf.cast(x, dtype).numpy().tolist())
print(tf.cast(tf.constant([300, -1, 70000]), tf.uint8).numpy().tolist())
print(tf.cast(tf.constant([-1.0, 300.0], tf.float64), tf.uint8).numpy().tolist())
print(tf.cast(tf.constant([-1.0, 300.0], tf.float16), tf.uint8).numpy().tolist())
image = tf.constant([[0.0, 0.5, 1.0, 1.01]])
print(tf.cast(image * 255, tf.uint8))
print(tf.cast(tf.constant([2.7, -2.7, 0.5]), tf.int32))

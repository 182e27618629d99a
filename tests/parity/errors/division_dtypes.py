import tensorflow as tf

for dtype in [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.float32, tf.bool]:
    a = tf.cast(tf.constant([1, 2]), dtype)
    b = tf.cast(tf.constant([0, 4]), dtype)
    for name, fn in [("divide", tf.divide), ("truediv", lambda x, y: x / y),
                     ("divide_no_nan", tf.math.divide_no_nan), ("xdivy", tf.math.xdivy)]:
        try:
            out = fn(a, b) if name != "divide" else fn(a, a)
            print(dtype.name, name, out.dtype.name, out.numpy().tolist())
        except Exception as e:
            print(dtype.name, name, type(e).__name__)

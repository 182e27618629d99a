import tensorflow as tf

dtypes = [tf.int8, tf.int32, tf.uint8, tf.uint16, tf.float32, tf.bool, tf.complex64]
ops = {
    "abs": tf.abs,
    "negative": tf.negative,
    "sign": tf.sign,
    "round": tf.round,
    "floor": tf.floor,
    "reciprocal": tf.math.reciprocal,
    "relu": tf.nn.relu,
    "invert": tf.bitwise.invert,
}
for name, fn in ops.items():
    row = []
    for dtype in dtypes:
        x = tf.cast(tf.constant([3, 1]), dtype)
        try:
            out = fn(x)
            row.append(f"{dtype.name}={out.dtype.name}")
        except Exception as e:
            row.append(f"{dtype.name}:{type(e).__name__}")
    print(name, " ".join(row))

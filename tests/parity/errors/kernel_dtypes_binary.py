import tensorflow as tf

dtypes = [tf.int8, tf.int16, tf.int32, tf.uint8, tf.uint32, tf.float16, tf.float32, tf.bool, tf.complex64]
ops = {
    "add": lambda a, b: tf.add(a, b),
    "multiply": lambda a, b: a * b,
    "floordiv": lambda a, b: a // b,
    "mod": lambda a, b: a % b,
    "pow": lambda a, b: a ** b,
    "maximum": lambda a, b: tf.maximum(a, b),
    "less": lambda a, b: a < b,
    "squared_difference": lambda a, b: tf.math.squared_difference(a, b),
}
for name, fn in ops.items():
    row = []
    for dtype in dtypes:
        a = tf.cast(tf.constant(3), dtype)
        b = tf.cast(tf.constant(2), dtype)
        try:
            row.append(f"{dtype.name}={fn(a, b).dtype.name}")
        except Exception as e:
            row.append(f"{dtype.name}:{type(e).__name__}")
    print(name, " ".join(row))

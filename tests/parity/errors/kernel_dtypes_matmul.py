import tensorflow as tf

for dtype in [tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint64, tf.float16, tf.float32, tf.bool]:
    a = tf.cast(tf.constant([[1, 2], [3, 4]]), dtype)
    try:
        print(dtype.name, tf.matmul(a, a).numpy().tolist())
    except tf.errors.InvalidArgumentError as e:
        print(dtype.name, "InvalidArgumentError", isinstance(e, tf.errors.OpError))
    except tf.errors.NotFoundError as e:
        print(dtype.name, "NotFoundError", isinstance(e, tf.errors.OpError))


@tf.function
def product(x):
    return tf.matmul(x, x)


try:
    product(tf.constant([[1]], tf.int8))
except Exception as e:
    print("in function:", type(e).__name__)
print(product(tf.constant([[2]], tf.int32)).numpy())

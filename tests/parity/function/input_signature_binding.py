"""An input_signature binds arguments by position or name; parameters after it keep their defaults."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
def scaled(x, n):
    return x * tf.cast(n, tf.float32)


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def doubled(x, scale=2.0):
    return x * scale


x = tf.constant([1.0, 2.0])
print(scaled(x, 3).numpy(), scaled(x=x, n=2).numpy(), scaled(x, n=4).numpy())
print(doubled(tf.constant(1.5)).numpy(), doubled(tf.constant(1.5), 2.0).numpy())
calls = {"missing": lambda: scaled(x), "too many": lambda: scaled(x, 2, 3),
         "unknown name": lambda: scaled(x, m=2), "twice": lambda: scaled(x, x=x),
         "wrong dtype": lambda: scaled(x, tf.constant(2.5)),
         "wrong rank": lambda: scaled(tf.constant([[1.0]]), 1), "other default": lambda: doubled(1.0, 3.0)}
for what, call in calls.items():
    try:
        call()
    except TypeError as e:
        print(what, type(e).__name__, str(e).startswith("Binding inputs to tf.function failed due to `"))
print(scaled.experimental_get_tracing_count(), doubled.experimental_get_tracing_count())

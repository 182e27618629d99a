"""An input_signature with a None dimension traces once for every length."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def total(x):
    print("trace", x.shape)
    return tf.reduce_sum(x)

print(total(tf.constant([1.0, 2.0])))
print(total(tf.constant([1.0, 2.0, 3.0])))
print(total(tf.ones(10)))
print(total.experimental_get_tracing_count())
try:
    total(tf.constant([[1.0]]))
except Exception as e:
    print(type(e).__name__, isinstance(e, (TypeError, ValueError)))

"""String ops inside a function; results come back as bytes."""
import tensorflow as tf


@tf.function
def label(x):
    if x > 0:
        return tf.strings.join(["pos:", tf.strings.as_string(x)])
    return tf.constant("non-positive")

print(label(tf.constant(3)).numpy())
print(label(tf.constant(-3)).numpy())
print(tf.strings.to_hash_bucket_fast(tf.constant(["a", "b"]), 10).dtype)

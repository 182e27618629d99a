"""return inside a tensor-dependent loop and branch."""
import tensorflow as tf


@tf.function
def first_over(xs, limit):
    for x in xs:
        if x > limit:
            return x
    return tf.constant(-1)

print(first_over(tf.constant([1, 5, 9]), tf.constant(4)))
print(first_over(tf.constant([1, 2]), tf.constant(4)))

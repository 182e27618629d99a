"""tf.data.experimental.enable_debug_mode: a map function is traced when the dataset is made, then
runs eagerly on each element (its print shows every element)."""
import tensorflow as tf

tf.data.experimental.enable_debug_mode()


def double(x):
    print("x is", x)
    return x * 2


ds = tf.data.Dataset.range(3).map(double)
print("made")
print(list(ds.as_numpy_iterator()))
evens = tf.data.Dataset.range(6).filter(lambda x: x % 2 == 0).map(lambda x: x + 1,
                                                                   num_parallel_calls=tf.data.AUTOTUNE)
print(list(evens.batch(2).as_numpy_iterator()))


@tf.function
def inside():
    tf.data.experimental.enable_debug_mode()
    return 1


try:
    inside()
except ValueError as e:
    print(type(e).__name__)

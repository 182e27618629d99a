"""from_generator converts what the generator yields to the output_signature."""
import numpy as np
import tensorflow as tf


def gen():
    for i in range(3):
        yield i, np.full((2,), i, dtype=np.float32)

ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec((), tf.int32),
                                                          tf.TensorSpec((2,), tf.float32)))
print(ds.element_spec)
for a, b in ds:
    print(a.numpy(), b.numpy())

def single():
    yield [1, 2]
    yield [3, 4]

ds = tf.data.Dataset.from_generator(single, output_signature=tf.TensorSpec((2,), tf.int64))
print(list(ds.as_numpy_iterator()))

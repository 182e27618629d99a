"""map, filter and batch."""
import tensorflow as tf

ds = tf.data.Dataset.range(10).map(lambda x: x * 2).filter(lambda x: x % 3 == 0).batch(2)
for b in ds:
    print(b)
print(ds.element_spec)
ds = tf.data.Dataset.range(5).map(lambda x: (x, tf.cast(x, tf.float32) / 2))
print(list(ds.as_numpy_iterator()))

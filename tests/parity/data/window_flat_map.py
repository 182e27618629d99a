"""window and flat_map."""
import tensorflow as tf

ds = tf.data.Dataset.range(6).window(3, shift=2, drop_remainder=True)
for w in ds:
    print(list(w.as_numpy_iterator()))
flat = tf.data.Dataset.range(6).window(3, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(3))
print([b.numpy().tolist() for b in flat])
nested = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.from_tensors(x).repeat(x))
print(list(nested.as_numpy_iterator()))

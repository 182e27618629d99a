"""padded_batch pads every element to the longest in the batch."""
import tensorflow as tf

ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
for b in ds.padded_batch(2):
    print(b.numpy().tolist())
print(ds.padded_batch(2).element_spec)
for b in ds.padded_batch(2, padded_shapes=[5], padding_values=tf.constant(-1, tf.int64)):
    print(b.numpy().tolist())

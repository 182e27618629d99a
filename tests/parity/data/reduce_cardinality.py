"""reduce, cardinality, unbatch."""
import tensorflow as tf

ds = tf.data.Dataset.range(5)
print(ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x))
print(ds.cardinality(), len(ds))
print(ds.filter(lambda x: x > 1).cardinality().numpy() == tf.data.UNKNOWN_CARDINALITY)
print(list(ds.batch(2).unbatch().as_numpy_iterator()))
print(ds.batch(2).unbatch().element_spec)

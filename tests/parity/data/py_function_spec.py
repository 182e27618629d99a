"""py_function inside map: the shape becomes unknown; set_shape restores it."""
import tensorflow as tf


def double(x):
    return x.numpy() * 2

ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(double, [x], tf.int64))
print(ds.element_spec)
print(list(ds.as_numpy_iterator()))

def fix(x):
    y = tf.py_function(double, [x], tf.int64)
    y.set_shape([])
    return y

print(tf.data.Dataset.range(3).map(fix).element_spec)
print(tf.data.Dataset.range(3).map(lambda x: tf.ensure_shape(x, [])).element_spec)

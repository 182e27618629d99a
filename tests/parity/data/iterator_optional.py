"""Iterators, get_next and get_next_as_optional."""
import tensorflow as tf

it = iter(tf.data.Dataset.range(2))
print(it.get_next())
print(next(it))
opt = it.get_next_as_optional()
print(opt.has_value())
it = iter(tf.data.Dataset.range(5, 6))
opt = it.get_next_as_optional()
print(opt.has_value(), opt.get_value())
o = tf.experimental.Optional.from_value(tf.constant(3))
print(o.has_value(), o.get_value())
print(tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)).has_value())

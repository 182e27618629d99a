"""namedtuples are kept; is_nested."""
import collections

import tensorflow as tf

Point = collections.namedtuple("Point", ["x", "y"])
p = Point(1, 2)
print(tf.nest.flatten(p))
print(tf.nest.map_structure(lambda v: v * 10, p))
print(tf.nest.is_nested(p), tf.nest.is_nested(1), tf.nest.is_nested([]), tf.nest.is_nested("ab"))
print(tf.nest.is_nested(tf.constant([1, 2])))
print(tf.nest.pack_sequence_as(p, [5, 6]))

"""map_structure over one and several structures."""
import tensorflow as tf

print(tf.nest.map_structure(lambda x: x * 2, {"a": 1, "b": [2, 3]}))
print(tf.nest.map_structure(lambda x, y: x + y, (1, 2), (10, 20)))
print(tf.nest.map_structure(lambda x: x, [1, None]))
print(tf.nest.map_structure(lambda x: tf.constant(x).dtype, (1, 2.0)))

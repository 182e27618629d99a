"""nest.flatten sorts dict keys and keeps None as a leaf."""
import tensorflow as tf

print(tf.nest.flatten({"b": 1, "a": (2, 3), "c": None}))
print(tf.nest.flatten([1, [2, [3, 4]], ()]))
print(tf.nest.flatten(5))
print(tf.nest.flatten({"x": {"z": 1, "y": 2}}))
print(tf.nest.flatten(tf.constant([1, 2])))

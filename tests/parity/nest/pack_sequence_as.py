"""pack_sequence_as rebuilds a structure from a flat list."""
import tensorflow as tf

structure = {"b": (0, 0), "a": [0]}
print(tf.nest.pack_sequence_as(structure, [1, 2, 3]))
print(tf.nest.pack_sequence_as((0, [0, 0]), ["x", "y", "z"]))
try:
    tf.nest.pack_sequence_as((0, 0), [1])
except Exception as e:
    print(type(e).__name__)

"""A watched tensor read only by row lookups gets an IndexedSlices gradient, as a Variable does."""
import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.gather(x, [0, 0, 2])
    z1 = tf.reduce_sum(y)
    z2 = tf.reduce_sum(tf.boolean_mask(y, [True, False, True]))
    z3 = tf.reduce_sum(tf.gather(x * 1.0, [1]))
for z in [z1, z2, z3]:
    g = tape.gradient(z, x)
    print(isinstance(g, tf.IndexedSlices), tf.convert_to_tensor(g))
print(tape.gradient(z1, x))

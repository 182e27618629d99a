"""io.write_file and io.read_file with string tensors."""
import tensorflow as tf

tf.io.write_file("x.txt", tf.constant("payload"))
print(tf.io.read_file("x.txt"))
print(tf.io.read_file("x.txt").dtype)

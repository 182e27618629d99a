"""gfile.makedirs, exists, isdir, listdir."""
import tensorflow as tf

tf.io.gfile.makedirs("out/a/b")
print(tf.io.gfile.exists("out/a/b"), tf.io.gfile.isdir("out/a"), tf.io.gfile.exists("nope"))
tf.io.gfile.mkdir("out/c")
print(sorted(tf.io.gfile.listdir("out")))

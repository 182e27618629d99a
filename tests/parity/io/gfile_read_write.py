"""GFile for writing and reading text."""
import tensorflow as tf

with tf.io.gfile.GFile("notes.txt", "w") as f:
    f.write("line one\nline two\n")
with tf.io.gfile.GFile("notes.txt", "r") as f:
    print(f.read().splitlines())
with tf.io.gfile.GFile("notes.txt") as f:
    print([line.rstrip() for line in f])
print(tf.io.gfile.stat("notes.txt").length)

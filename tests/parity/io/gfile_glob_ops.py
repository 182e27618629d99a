"""glob, copy, rename, remove, rmtree."""
import tensorflow as tf

tf.io.gfile.makedirs("d")
for name in ("a.txt", "b.txt", "c.csv"):
    with tf.io.gfile.GFile(f"d/{name}", "w") as f:
        f.write(name)
print(sorted(tf.io.gfile.glob("d/*.txt")))
tf.io.gfile.copy("d/a.txt", "d/a2.txt")
tf.io.gfile.rename("d/b.txt", "d/b2.txt")
tf.io.gfile.remove("d/c.csv")
print(sorted(tf.io.gfile.listdir("d")))
tf.io.gfile.rmtree("d")
print(tf.io.gfile.exists("d"))

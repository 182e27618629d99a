"""f-strings and format() of eager tensors format the NumPy value."""
import tensorflow as tf

loss = tf.constant(0.123456)
print(f"{loss:.4f}")
print(format(loss, ".2f"))
print("{}".format(tf.constant(5)))
print("{:>6}".format(tf.constant(5)))
print(f"{tf.constant(3.0):.1e}")
print(f"{tf.constant(7):d}")
print(f"{tf.constant([1, 2])}")
print(str(tf.constant(2.0)))
print("loss: %.3f" % tf.constant(0.5))
print("{:.2%}".format(tf.constant(0.25)))

"""repr and str of Variables; eager Variables are all named Variable:0."""
import tensorflow as tf

a = tf.Variable(1.0)
b = tf.Variable([1, 2])
c = tf.Variable([[1.0, 2.0]], name="weights")
print(a)
print(b)
print(repr(c))
print(a.name, b.name, c.name)
print(f"{a.numpy():.2f}")
try:
    print(f"{a:.3f}")
except Exception as e:
    print("format spec on a Variable:", type(e).__name__)
print(str(b))

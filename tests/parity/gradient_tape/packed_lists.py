"""Gradients through Python lists of tensors that ops pack into one tensor."""
import tensorflow as tf

x = tf.constant(1.0)
v = tf.Variable(3.0)
cases = [
    ("sum", lambda: tf.reduce_sum([x, 2 * x])),
    ("logsumexp", lambda: tf.math.reduce_logsumexp([x, 2 * x])),
    ("multiply", lambda: tf.multiply([x, x], 3.0)),
    ("convert", lambda: tf.convert_to_tensor([x, 3 * x]) * 1.0),
    ("nested", lambda: tf.reduce_sum([[x, 1.0], [2.0, x * x]])),
    ("variable", lambda: tf.reduce_sum([v, x])),
    ("matmul", lambda: tf.matmul([[x, v]], [[1.0], [2.0]])),
]
for name, fn in cases:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn()
    print(name, tape.gradient(y, [x, v]))

with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
    y = tf.reduce_sum([x * x, 3.0])
print(acc.jvp(y))

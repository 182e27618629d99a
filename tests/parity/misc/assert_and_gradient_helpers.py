"""tf.Assert (eagerly and inside function, caught as InvalidArgumentError), grad_pass_through,
recompute_grad, gradients refused eagerly, inside_function, is_symbolic_tensor, tuple, as_string."""
import tensorflow as tf

try:
    tf.Assert(tf.constant(False), [tf.constant([1, 2]), "hello"])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, str(e).splitlines()[-1:], "Summarized data: 1, 2" in str(e))
print(tf.Assert(tf.constant(True), [1]))
try:
    tf.gradients(tf.constant(1.0), tf.constant(2.0))
except RuntimeError as e:
    print(type(e).__name__)
print(tf.inside_function(), bool(tf.function(lambda: tf.inside_function())()))
print(tf.is_symbolic_tensor(tf.constant(1)))
print([int(t) if t.dtype == tf.int32 else float(t) for t in tf.tuple([tf.constant(1), tf.constant(2.)])])
print(tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT)
x = tf.constant(3.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.grad_pass_through(tf.round)(x * 1.4)
print(float(y), round(float(t.gradient(y, x)), 5))
f = tf.recompute_grad(lambda v: v ** 2)
with tf.GradientTape() as t:
    t.watch(x)
    y = f(x)
print(float(y), float(t.gradient(y, x)))
print(tf.as_string(tf.constant([1.5, 2.0]), precision=2).numpy())


@tf.function
def checked(v):
    tf.Assert(tf.reduce_all(v > 0), [v])
    return v * 2


print(checked(tf.constant([1.0, 2.0])).numpy())
try:
    checked(tf.constant([1.0, -2.0]))
except tf.errors.InvalidArgumentError:
    print("raised InvalidArgumentError")

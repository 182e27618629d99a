"""debugging.enable_check_numerics: eager ops, a function's ops and gradients raise on NaN/Inf."""
import tensorflow as tf

tf.debugging.enable_check_numerics()
print(tf.math.log(tf.constant([1.0, 2.0])))
for values in ([0.0, 1.0], [-1.0, 2.0]):
    try:
        tf.math.log(tf.constant(values))
        print("no error")
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__, "-Inf" in str(e), "NaN" in str(e))
try:
    print(1.0 / tf.constant([1.0, 0.0]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, "+Inf" in str(e))


@tf.function
def f(a):
    return tf.sqrt(a) * 2.0


print(f(tf.constant([4.0])))
try:
    print(f(tf.constant([-1.0])))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
print(tf.constant([1, 2]) // tf.constant([1, 1]))
v = tf.Variable([1.0, -1.0])
with tf.GradientTape() as t:
    y = tf.reduce_sum(tf.sqrt(tf.abs(v) - 1.0))
try:
    print(t.gradient(y, v))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
tf.debugging.disable_check_numerics()
print(tf.math.log(tf.constant([0.0, -1.0])))
tf.debugging.disable_check_numerics()
print("done")

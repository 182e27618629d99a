"""tf.autodiff.ForwardAccumulator: JVPs of tensors and Variables, nested structures, unconnected and
integer targets, forward-over-backward and backward-over-forward, bad tangents; tf.losses/optimizers."""
import tensorflow as tf

x = tf.constant([1.0, 2.0])
v = tf.Variable([3.0, -1.0])
with tf.autodiff.ForwardAccumulator(primals=x, tangents=tf.constant([1.0, 0.5])) as acc:
    y = tf.reduce_sum(x * x * 3.0)
    z = tf.sin(x)
    w = tf.cast(x, tf.int32)
print(acc.jvp(y))
print(acc.jvp(z))
print(acc.jvp(w))
print(acc.jvp(x))
print(acc.jvp(tf.constant(2.0)))
print(acc.jvp(tf.constant(2.0), unconnected_gradients=tf.UnconnectedGradients.ZERO))
print(acc.jvp({"a": y, "b": [z]}))
with tf.autodiff.ForwardAccumulator([v, x], [tf.constant([1.0, 1.0]), tf.constant([0.0, 2.0])]) as acc:
    y = v * x + v
    q = tf.reduce_sum(tf.square(v))
print(acc.jvp(y), acc.jvp(q))
# forward over backward: Hessian-vector product
with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, 0.5])) as acc:
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v ** 3)
    g = tape.gradient(loss, v)
print(acc.jvp(g))
# backward over forward
with tf.GradientTape() as tape:
    tape.watch(x)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        y = tf.reduce_sum(tf.exp(x))
    jv = acc.jvp(y)
print(jv, tape.gradient(jv, x))
try:
    tf.autodiff.ForwardAccumulator([x, x], [tf.constant([1.0, 2.0])])
except Exception as e:
    print(type(e).__name__)
print(tf.autodiff.GradientTape is tf.GradientTape)
try:
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1, 2])) as acc:
        pass
except Exception as e:
    print(type(e).__name__)
print(tf.losses.MeanSquaredError()([1.0, 2.0], [1.5, 2.0]))
print(type(tf.optimizers.Adam(0.1)).__name__, type(tf.metrics.Mean()).__name__)

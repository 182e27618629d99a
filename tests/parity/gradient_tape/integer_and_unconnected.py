import tensorflow as tf

x = tf.Variable(3.0)
y = tf.Variable(2.0)
with tf.GradientTape(watch_accessed_variables=False) as t:
    t.watch(x)
    z = x * y
print(t.gradient(z, [x, y]))
with tf.GradientTape() as t:
    a = x * x
    with t.stop_recording():
        b = x * 10
    c = a + b
print(t.gradient(c, x))
i = tf.constant(3)
with tf.GradientTape() as t:
    t.watch(i)
    k = i * i
print(t.gradient(k, i))
with tf.GradientTape() as t:
    q = y * 2
print(t.gradient(q, x))
with tf.GradientTape() as t:
    q = y * 2
print(t.gradient(q, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
with tf.GradientTape() as t:
    p = tf.cast(x, tf.int32)
print(t.gradient(p, x))
with tf.GradientTape() as t:
    o = [x * 2, y * 3]
print(t.gradient(o, {"x": x, "y": y}))
with tf.GradientTape() as t:
    o = x * 2
print(t.gradient(o, x, output_gradients=tf.constant(3.0)))
xs = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as t:
    t.watch(xs)
    ys = xs ** 2
print(t.jacobian(ys, xs))
bx = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as t:
    t.watch(bx)
    by = bx * bx
print(t.batch_jacobian(by, bx))

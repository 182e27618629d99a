"""Variables passed to a tf.function: one trace per VariableSpec (shape, dtype, trainable, aliasing)."""
import tensorflow as tf

a = tf.Variable(1.0)
b = tf.Variable(10.0)


@tf.function
def step(v, x):
    print("trace step", v.shape, v.dtype.name)
    v.assign_add(x)
    return v * 2.0


print(step(a, tf.constant(1.0)))
print(step(b, tf.constant(2.0)))
print(step(a, tf.constant(3.0)))
print(a.numpy(), b.numpy(), step.experimental_get_tracing_count())
c = tf.Variable([1.0, 2.0])
print(step(c, tf.constant([1.0, 1.0])), step.experimental_get_tracing_count())
frozen = tf.Variable(3.0, trainable=False)
print(step(frozen, tf.constant(1.0)), step.experimental_get_tracing_count())


@tf.function
def loss(v, x):
    return v * x * x


for var in (a, b):
    with tf.GradientTape() as tape:
        y = loss(var, tf.constant(3.0))
    print(tape.gradient(y, var))
print(loss.experimental_get_tracing_count())

cf = step.get_concrete_function(a, tf.constant(1.0))
print(step.experimental_get_tracing_count())
print(cf(a, tf.constant(1.0)), a.numpy())
print(cf(b, tf.constant(1.0)), b.numpy())
print(cf(v=b, x=tf.constant(1.0)), b.numpy())
print(cf.structured_input_signature)
print(cf)
print(len(cf.captured_inputs))


@tf.function
def both(u, w):
    print("trace both")
    u.assign_add(1.0)
    w.assign_add(10.0)
    return u + w


print(both(a, b), a.numpy(), b.numpy())
print(both(a, a), a.numpy())
print(both(b, a), a.numpy(), b.numpy())
print(both.experimental_get_tracing_count())
print(both.get_concrete_function(b, b).structured_input_signature)


@tf.function
def pair_sum(vs, w):
    print("trace pair_sum")
    return vs[0] + vs[1] + w


print(pair_sum([a, b], a), pair_sum([b, a], b), pair_sum([b, b], b))
print(pair_sum.experimental_get_tracing_count())
print(pair_sum.get_concrete_function([a, b], a).structured_input_signature)


@tf.function
def plus_global(v):
    print("trace plus_global")
    return v + a


print(plus_global(a), plus_global(b), plus_global.experimental_get_tracing_count())

"""Calling a concrete function with keywords and structures, and what it shows (outputs, captures)."""
import tensorflow as tf

w = tf.Variable([1.0, 2.0], name="w")


@tf.function
def f(x, y, scale=2.0):
    return {"sum": x + y + w, "prod": x * y * scale}


def attempt(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)


cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32, name="yy"))
one, two = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
attempt(lambda: cf(one, two))
attempt(lambda: cf(x=one, y=two))
attempt(lambda: cf(x=one, yy=two))
attempt(lambda: cf(one, yy=two))
attempt(lambda: cf(one, two, 2.0))
attempt(lambda: cf(one, two, scale=2.0))
attempt(lambda: cf(x=one, y=two, scale=2.0))
attempt(lambda: cf(x=one, y=two, scale=3.0))
attempt(lambda: cf(one))
attempt(lambda: cf(one, two, two))
attempt(lambda: cf(one, two, z=two))
print(cf.output_shapes)
print(cf.output_dtypes)
print(len(cf.captured_inputs))
print(cf.structured_outputs)
print(cf.outputs)
print(cf.inputs[:2])
print(cf.function_type)
print(cf.structured_input_signature)
print(len(cf.variables), len(cf.trainable_variables))


@tf.function
def g(x):
    return x * 2, [x + 1, 3]


cg = g.get_concrete_function(tf.constant(1))
print(cg.output_shapes, cg.output_dtypes)
print(cg.structured_outputs)
print(cg.outputs)
print(cg(x=tf.constant(5)))
print(cg.function_type)
print(cg.inputs)
print(len(cg.variables), len(cg.captured_inputs))


@tf.function
def p(x, pair, n=3):
    return x * pair[0] + pair[1] + n


cp = p.get_concrete_function(tf.TensorSpec([2]), (tf.constant(1.0), tf.TensorSpec([], name="bias")))
attempt(lambda: cp(one, (tf.constant(2.0), tf.constant(1.0))))
attempt(lambda: cp(one, (2.0, 1.0)))
attempt(lambda: cp(one, tf.constant(2.0), tf.constant(1.0)))
attempt(lambda: cp(one, (tf.constant(2.0), tf.constant(1.0)), 3))
attempt(lambda: cp(one, (tf.constant(2.0), tf.constant(1.0)), 4))
attempt(lambda: cp(tf.constant([1.0, 2.0, 3.0]), (tf.constant(2.0), tf.constant(1.0))))
attempt(lambda: cp(x=one, pair=(tf.constant(2.0), tf.constant(1.0)), n=3))
attempt(lambda: cp(one, bias=tf.constant(1.0), pair=tf.constant(2.0)))
attempt(lambda: cp(one, pair_1=tf.constant(1.0), pair=tf.constant(2.0)))
print(cp.structured_input_signature)
print(cp.inputs)

v = tf.Variable(2.0)
u = tf.Variable(5.0)


@tf.function
def bump(v, x):
    v.assign_add(x)
    return v * 1.0


cb = bump.get_concrete_function(v, tf.constant(1.0))
attempt(lambda: cb(v, tf.constant(1.0)))
attempt(lambda: cb(u, tf.constant(1.0)))
attempt(lambda: cb(v=u, x=tf.constant(1.0)))
attempt(lambda: cb(tf.constant(1.0), tf.constant(1.0)))
print(v.numpy(), u.numpy())
print(cb.inputs)
print(cb.function_type)

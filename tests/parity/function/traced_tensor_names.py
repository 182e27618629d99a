import tensorflow as tf


@tf.function
def f(x, y):
    z = x * 2
    s = tf.reduce_sum(z + y)
    print(x.name, x.op.type, y.name)
    print(z.name, z.op.name, z.op.type)
    print(s.name, s.op.type)
    print(repr(z))
    return s


print(f(tf.constant([1.0, 2.0]), tf.constant(1.0)))
for attribute in ("name", "op"):
    try:
        getattr(tf.constant(1.0), attribute)
    except AttributeError as e:
        print(attribute, "AttributeError", "undefined when eager execution is enabled" in str(e))

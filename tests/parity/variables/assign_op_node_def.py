import tensorflow as tf

v = tf.Variable(1.0)
w = tf.Variable([1, 2])


@tf.function
def f(x):
    a = v.assign_add(x * 2, read_value=False)
    print(a)
    b = v.assign_sub(1.0, read_value=False, name="down")
    print(b)
    c = v.assign(x, read_value=False)
    print(c)
    d = w.assign([3, 4], read_value=False)
    print(d)
    print(tf.group(a, b))
    print(tf.no_op())
    print(tf.group([c, d], name="both"))
    print([a, b])
    with tf.control_dependencies([a]):
        return v + 1


print(f(tf.constant(1.0)))
print(v.numpy(), w.numpy())

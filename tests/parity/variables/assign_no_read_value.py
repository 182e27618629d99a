import tensorflow as tf

v = tf.Variable(1.0)
print(v.assign(2.0, read_value=False), v.assign_add(2.0, read_value=False))
print(v.assign_sub(1.0, read_value=False) is None, v.numpy())


@tf.function
def step(x):
    a = v.assign(5.0, read_value=False)
    b = v.assign_add(x, read_value=False)
    c = v.assign_sub(1.0, read_value=False, name="down")
    for op in (a, b, c):
        print(type(op).__name__, op.name, op.type, len(op.inputs), op.outputs)
    print(isinstance(a, tf.Operation))
    r = v.assign(3.0)
    print(type(r).__name__)
    return x


print(step(tf.constant(1.0)))
print(v.numpy())

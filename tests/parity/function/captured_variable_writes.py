import tensorflow as tf

v = tf.Variable(1.0)
count = tf.Variable(0)


@tf.function
def step(x):
    v.assign(x * 2)
    count.assign_add(1, read_value=False)
    return v + tf.cast(count, tf.float32)


cf = step.get_concrete_function(tf.TensorSpec([], tf.float32))
print(cf.inputs)
print(step(tf.constant(2.0)), step(tf.constant(3.0)))
print(v.numpy(), count.numpy())

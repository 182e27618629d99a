"""What assign, assign_add and assign_sub return: the Variable, shown as 'UnreadVariable'."""
import tensorflow as tf

v = tf.Variable(1.0)
r = v.assign(2.0)
print(r)
print(r.name, v.name, isinstance(r, tf.Variable))
print(v.assign_add(1.0))
print(v.assign_sub(0.5))
print(v.assign(3.0, read_value=False), v.assign_add(1.0, read_value=False))
print(v.assign(1.0) + 1)
v.assign(6.0)
print(r.numpy())
r.assign_add(1.0)
print(v.numpy())

w = tf.Variable([1, 2], name="w")
print(w.assign([3, 4]))
print(w.assign([5, 6]).assign([7, 8]))
print(w[0].assign(9))
print(w)
x = tf.Variable([1.0, 2.0, 3.0])
print(x.scatter_nd_update([[0]], [10.0]))

with tf.GradientTape() as tape:
    y = v.assign(2.0) * 3
print(tape.gradient(y, v))


@tf.function
def step():
    return v.assign(7.0) * 2


print(step())

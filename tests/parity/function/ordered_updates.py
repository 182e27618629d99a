"""Variable updates inside a function run in program order: f(1.0, 2.0) gives 10.0."""
import tensorflow as tf

a = tf.Variable(1.0)
b = tf.Variable(2.0)

@tf.function
def f(x, y):
    a.assign(y * b)
    b.assign_add(x * a)
    return a + b

print(f(1.0, 2.0))
print(a.numpy(), b.numpy())

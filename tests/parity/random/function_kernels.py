"""Random ops inside tf.function under a global or an op seed draw TF's numbers: the graph seeds
its n-th unseeded random op (global seed, n) (shuffle, categorical and dropout count too), each
op's kernel keeps its Philox counter from call to call and through loops, a retrace makes new
kernels, and set_seed starts every kernel afresh."""
import tensorflow as tf

tf.random.set_seed(1)


@tf.function
def draws():
    return tf.random.uniform([2]), tf.random.normal([2]), tf.random.uniform([2], seed=5)


for _ in range(2):
    print([t.numpy() for t in draws()])


@tf.function
def noisy(x):
    return x + tf.random.uniform([3])


print(noisy(tf.constant(1.0)).numpy(), noisy(tf.constant(1.0)).numpy())
print(noisy(tf.constant([1.0, 2.0, 3.0])).numpy())  # a retrace: new kernels
tf.random.set_seed(1)
print(noisy(tf.constant(1.0)).numpy())  # no retrace, the kernel starts again


@tf.function
def in_a_loop():
    total = tf.constant(0.0)
    for _ in tf.range(3):
        total += tf.random.uniform([])
    return total


print(in_a_loop().numpy(), in_a_loop().numpy())
print(tf.random.uniform([2]).numpy())

tf.random.set_seed(4)


@tf.function
def mixed(x):
    s = tf.random.shuffle(x)
    c = tf.random.categorical([[0.0, 1.0]], 3)
    d = tf.nn.dropout(tf.ones([6]), 0.5)
    return tf.random.uniform([2]), tf.random.truncated_normal([2], seed=3), d, tf.reduce_sum(s), c.shape[1]


for _ in range(2):
    u, t, d, s, n = mixed(tf.range(5))
    print(u.numpy(), t.numpy(), d.numpy(), s.numpy(), n)

tf.random.set_seed(None)


@tf.function
def op_seed_only():
    return tf.random.normal([2], seed=11)


print(op_seed_only().numpy(), op_seed_only().numpy())

tf.random.set_seed(2)


@tf.function
def inner():
    return tf.random.uniform([2])


@tf.function
def outer():  # the nested function has a graph of its own: its op seeds count from 0 again
    return tf.random.uniform([2]), inner(), tf.random.uniform([2])


for _ in range(2):
    print([t.numpy() for t in outer()])
print(inner().numpy())

"""A dataset looped over inside a tf.function: tracing reads no pass, each call one fresh pass."""
import tensorflow as tf

D = tf.data.Dataset
ds = D.range(8).shuffle(8, seed=1)


@tf.function
def collect(d):
    ta = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
    i = 0
    for x in d:
        ta = ta.write(i, x)
        i += 1
    return ta.stack()


print(collect(ds).numpy())
print(collect(ds).numpy())
print([int(x) for x in ds])
print(collect(ds).numpy())
ds3 = D.range(8).shuffle(8, seed=1).batch(4)


@tf.function
def sums(d):
    s = tf.constant(0, tf.int64)
    for b in d:
        s = s * 100 + b[0]
    return s


print(sums(ds3).numpy(), sums(ds3).numpy())
calls = []


def gen():
    calls.append(1)
    for i in range(3):
        yield i


g = D.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))


@tf.function
def total(d):
    s = tf.constant(0)
    for x in d:
        s += x
    return s


print(total(g).numpy(), len(calls))
print(total(g).numpy(), len(calls))

"""An iterator passed to (or captured by) a tf.function: every call pulls fresh elements."""
import tensorflow as tf

D = tf.data.Dataset


@tf.function
def first(it):
    return next(it)


it = iter(D.range(3, 10))
print(first(it), first(it))
print(next(it))


@tf.function
def steps(it, n):
    s = tf.constant(0, tf.int64)
    for _ in tf.range(n):
        s += next(it)
    return s


it2 = iter(D.range(100))
print(steps(it2, 3), steps(it2, 3), next(it2))


@tf.function
def get_next(it):
    return it.get_next()


it3 = iter(D.range(2).map(lambda x: {"a": x}))
print(get_next(it3), get_next(it3))
try:
    get_next(it3)
except tf.errors.OutOfRangeError as e:
    print(type(e).__name__)


@tf.function
def has(it):
    return it.get_next_as_optional().has_value()


it4 = iter(D.range(1))
print(has(it4), has(it4))

g = iter(D.range(4))


@tf.function
def closure():
    return next(g) * 10


print(closure(), closure(), next(g))


@tf.function
def loop(it):
    s = tf.constant(0, tf.int64)
    for x in it:
        if x > 5:
            break
        s += x
    return s


it5 = iter(D.range(10))
print(loop(it5), next(it5), loop(it5))

"""tf.Assert with text data inside a function, nested tensor loops with break/continue, TensorArray
accumulation in a while, a concrete function refusing another Python value, a generator helper."""
import tensorflow as tf


@tf.function
def checked(x):
    tf.Assert(x > 0, ["bad value:", x])
    return x * 2


print(checked(tf.constant(3)))
try:
    checked(tf.constant(-3))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, "bad value:" in str(e), "-3" in str(e))


@tf.function
def grid(n):
    total = tf.constant(0)
    for i in tf.range(n):
        for j in tf.range(n):
            if j > i:
                break
            if (i + j) % 2 == 1:
                continue
            total += i * j
    return total


print(grid(tf.constant(5)))


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    i = tf.constant(0)
    while i < n:
        ta = ta.write(i, tf.cast(i, tf.float32) ** 2)
        i += 1
    return ta.stack()


print(squares(tf.constant(5)))


@tf.function
def scaled(x, scale=2):
    return x * scale


concrete = scaled.get_concrete_function(tf.TensorSpec([], tf.int32), scale=5)
print(concrete(tf.constant(3)))
try:
    concrete(tf.constant(3), scale=6)
except TypeError as e:
    print(type(e).__name__, str(e).startswith("Binding inputs to tf.function failed due to `Can not cast 6"))


@tf.function
def from_generator(n):
    def multiples():
        for i in range(3):
            yield i * n
    return sum(multiples())


print(from_generator(tf.constant(2)))

"""A variable first assigned inside a tensor loop (or None before it) and used after it: TF starts
it as zeros of the body's type and asserts that the loop iterates at least once."""
import tensorflow as tf


@tf.function
def last_square(n):
    for i in tf.range(n):
        last = i * i
    return last


@tf.function
def doubled(n):
    x = None
    i = 0
    while i < n:
        x = tf.fill([2], tf.cast(i, tf.float32) * 2.0)
        i += 1
    return x


print(last_square(tf.constant(4)))
print(doubled(tf.constant(3)))
for fn in (last_square, doubled):
    try:
        fn(tf.constant(0))
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__, "loop must iterate at least once" in str(e))


@tf.function
def from_dataset(ds):
    for x in ds:
        last = x
    return last


try:
    from_dataset(tf.data.Dataset.range(3))
except ValueError as e:
    print(type(e).__name__)

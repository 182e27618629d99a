"""for over tf.range with break and continue."""
import tensorflow as tf


@tf.function
def f(n):
    total = 0
    for i in tf.range(n):
        if i % 2 == 0:
            continue
        if i > 7:
            break
        total += i
    return total

print(f(tf.constant(20)))
print(f(tf.constant(4)))

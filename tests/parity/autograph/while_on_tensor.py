"""A while loop on a tensor condition."""
import tensorflow as tf


@tf.function
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps

print(collatz(tf.constant(27)))

@tf.function
def sum_until(limit):
    total = tf.constant(0.0)
    i = tf.constant(0.0)
    while total < limit:
        i += 1.0
        total += i
    return total, i

print(sum_until(tf.constant(20.0)))

"""TF's warning when 5 of a function's last 10 calls traced, at most twice per Python function."""
import logging
import re

import tensorflow as tf


class Show(logging.Handler):
    def emit(self, record):
        print("logged:", re.sub("0x[0-9a-f]+", "ADDRESS", record.getMessage())[:80])


logger = tf.get_logger()
logger.addHandler(Show())
logger.propagate = False


@tf.function
def f(x):
    return x * 2


print("a new shape on every other call")
for i in range(14):
    f(tf.constant([1.0] * (i // 2 + 1)))
print("a new Python number on every call")


def g(x):
    return x + 1


gf = tf.function(g)
for i in range(7):
    gf(i)
print("a function made again on every call (one Python function: they count together)")


def h(x):
    return x - 1


for _ in range(7):
    tf.function(h)(tf.constant(1.0))
print("one shape: traced once")
for _ in range(12):
    f(tf.constant([5.0]))

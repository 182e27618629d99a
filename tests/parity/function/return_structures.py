"""Functions return nested structures, Python values and None."""
import tensorflow as tf


@tf.function
def f(x):
    return {"sum": tf.reduce_sum(x), "pair": (x[0], [x[1], 3]), "none": None}

out = f(tf.constant([1, 2]))
print(sorted(out))
print(out["sum"], out["none"])
print(type(out["pair"]).__name__, type(out["pair"][1]).__name__)
print(out["pair"][1][1])

@tf.function
def g():
    return "text"

print(g())

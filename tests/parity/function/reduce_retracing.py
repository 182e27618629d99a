"""reduce_retracing generalizes shapes after a retrace."""
import tensorflow as tf


@tf.function(reduce_retracing=True)
def f(x):
    return tf.reduce_sum(x)

for n in range(1, 6):
    f(tf.ones(n))
print(f.experimental_get_tracing_count())

@tf.function
def g(x):
    return tf.reduce_sum(x)

for n in range(1, 6):
    g(tf.ones(n))
print(g.experimental_get_tracing_count())

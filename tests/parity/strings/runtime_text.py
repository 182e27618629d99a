"""Strings made inside function from values known only at run time: returned, printed, chosen, measured."""
import sys

import tensorflow as tf


@tf.function
def describe(x):
    text = tf.strings.join(["x=", tf.strings.as_string(x, precision=2)])
    print("tracing:", text)
    tf.print("printed:", text, output_stream=sys.stdout)
    return text, tf.strings.length(text)


for value in [1.5, 20.25]:
    text, n = describe(tf.constant(value))
    print(text.numpy(), n.numpy())
print(describe.experimental_get_tracing_count())


@tf.function
def grade(score):
    if score >= 90:
        label = tf.constant("A")
    elif score >= 75:
        label = tf.strings.join(["B", tf.strings.as_string(score // 10)])
    else:
        label = tf.constant("C")
    return label


print([grade(tf.constant(s)).numpy() for s in [95, 80, 10]])


@tf.function
def report(loss, step):
    return tf.strings.format("step {}: loss {}", (step, loss))


print(report(tf.constant(0.25), tf.constant(3)).numpy())


@tf.function
def upper_name(name, n):
    return tf.strings.upper(tf.strings.join([name, tf.strings.as_string(n)], separator="-"))


print(upper_name(tf.constant("run"), tf.constant(7)).numpy())
print(upper_name(tf.constant("run"), tf.constant(8)).numpy())

"""String tensor arguments: one trace per TensorSpec(dtype=string), each call computing on its own strings."""
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([], tf.string)])
def length(s):
    print("trace length", s)
    return tf.strings.length(s)


print(length(tf.constant("abc")).numpy(), length(tf.constant("de")).numpy(), length("xyz1").numpy())
print(length.experimental_get_tracing_count())


@tf.function
def shout(s, n):
    print("trace shout", s)
    return tf.strings.upper(s) + "!", n * 2


for word in ["hi", "there", "hi"]:
    out, m = shout(tf.constant(word), tf.constant(1))
    print(out.numpy(), m.numpy())
print(shout.experimental_get_tracing_count())
cf = shout.get_concrete_function(tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int32))
print(cf(tf.constant("hello"), tf.constant(3))[0].numpy())
print(cf(tf.constant("bye"), tf.constant(3))[0].numpy())
print(shout.experimental_get_tracing_count())


@tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
def joined(words):
    return tf.strings.reduce_join(words, separator="-")


print(joined(tf.constant(["a", "b"])).numpy(), joined(tf.constant(["x", "y", "z"])).numpy())
print(joined.experimental_get_tracing_count())

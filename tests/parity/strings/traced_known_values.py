"""String tensors inside function: constants, arguments passed through, tf.strings ops, tf.print."""
import tensorflow as tf


@tf.function
def greet(name):
    print("tracing with", name)
    tf.print("hello", name)
    upper = tf.strings.upper(name)
    joined = tf.strings.join([tf.constant("Hi, "), upper, "!"])
    return joined, tf.strings.length(name)


out, n = greet(tf.constant("ada"))
print(out, n)
print(out.numpy(), n.numpy())


@tf.function
def words(line):
    parts = tf.strings.split(line, " ")
    return tf.strings.reduce_join(parts, separator="|")


print(words(tf.constant("a b c")).numpy())


@tf.function
def pick(flag):
    s = tf.constant(["x", "yy", "zzz"])
    lengths = tf.strings.length(s)
    return s, lengths * flag


s, lens = pick(tf.constant(2))
print(s.numpy(), lens.numpy())


@tf.function
def tagged(x):
    tag = tf.constant("loss")
    tf.print(tag, x)
    print(tag)
    return x * 2


print(tagged(tf.constant(1.5)))
print(tf.strings.to_hash_bucket_fast(tf.constant(["a", "b"]), 10).dtype)

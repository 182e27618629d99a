"""A tf.data.Dataset passed to a tf.function: one trace per DatasetSpec (its element_spec)."""
import tensorflow as tf


@tf.function
def total(ds):
    print("trace total", ds.element_spec)
    s = tf.constant(0)
    for x in ds:
        s += x
    return s


a = tf.data.Dataset.range(5).map(lambda x: tf.cast(x, tf.int32))
b = tf.data.Dataset.from_tensor_slices(tf.constant([10, 20, 30]))
print(total(a))
print(total(b))
print(total(a))
print(total.experimental_get_tracing_count())
cf = total.get_concrete_function(b)
print(cf.structured_input_signature)
print(cf(tf.data.Dataset.from_tensor_slices([7, 8])))
print(total.experimental_get_tracing_count())
try:
    cf(tf.data.Dataset.range(3))
except Exception as e:
    print(type(e).__name__)


@tf.function
def batched(ds):
    print("trace batched", ds.element_spec)
    n = tf.constant(0)
    for x in ds:
        n += tf.reduce_sum(x)
    return n


ints = tf.data.Dataset.range(7).map(lambda x: tf.cast(x, tf.int32))
print(batched(ints.batch(3)))
print(batched(ints.take(4).batch(3)))
print(batched(ints.take(4).batch(2, drop_remainder=True)))
print(batched.experimental_get_tracing_count())

v = tf.Variable(0.0)


@tf.function
def train(ds, scale):
    print("trace train")
    for feats, label in ds:
        v.assign_add(tf.reduce_sum(feats["a"]) * scale + tf.cast(tf.reduce_sum(label), tf.float32))
    return v.read_value()


def make(n):
    feats = {"a": tf.reshape(tf.range(n * 2, dtype=tf.float32), [n, 2])}
    return tf.data.Dataset.from_tensor_slices((feats, tf.range(n)))


print(train(make(3), tf.constant(1.0)).numpy())
print(train(make(5), tf.constant(1.0)).numpy())
print(train(make(3), tf.constant(2.0)).numpy())
print(train.experimental_get_tracing_count())

"""data.experimental: assert_cardinality (declared count, both failures), get_structure, at, device moves."""
import tensorflow as tf

ds = tf.data.Dataset.range(5).filter(lambda x: x < 3)
print(int(ds.cardinality()))
a = ds.apply(tf.data.experimental.assert_cardinality(3))
print(int(a.cardinality()), [int(x) for x in a])
for n in (2, 4):
    try:
        print([int(x) for x in ds.apply(tf.data.experimental.assert_cardinality(n))])
    except Exception as e:
        print(type(e).__name__)
endless = tf.data.experimental.assert_cardinality(tf.data.INFINITE_CARDINALITY)
print(int(tf.data.Dataset.range(3).repeat().apply(endless).cardinality()))
print(tf.data.experimental.get_structure(tf.data.Dataset.from_tensor_slices(([1, 2], ["a", "b"]))))
print(tf.data.experimental.at(tf.data.Dataset.range(10).map(lambda x: x * 3), 4))
try:
    tf.data.experimental.at(tf.data.Dataset.range(3), 5)
except Exception as e:
    print(type(e).__name__)
print([int(x) for x in tf.data.Dataset.range(3).apply(tf.data.experimental.copy_to_device("/cpu:0"))])
print([int(x) for x in tf.data.Dataset.range(3).apply(tf.data.experimental.prefetch_to_device("/cpu:0"))])

"""tf.lookup: StaticHashTable (strings, ints, text files), StaticVocabularyTable OOV buckets, the
mutable table, lookups in Dataset.map and in a function, a wrong key dtype."""
import os
import tempfile

import tensorflow as tf

keys = tf.constant(["apple", "banana", "cherry"])
vals = tf.constant([0, 1, 2], tf.int64)
init = tf.lookup.KeyValueTensorInitializer(keys, vals)
print(init.key_dtype, init.value_dtype)
table = tf.lookup.StaticHashTable(init, default_value=-1)
print(table.lookup(tf.constant(["banana", "kiwi", "apple"])))
print(table.lookup(tf.constant([["cherry"], ["x"]])))
print(table.size(), table.key_dtype, table.value_dtype, table.default_value)
print(table[tf.constant("cherry")])
k, v = table.export()
print(sorted(zip(k.numpy().tolist(), v.numpy().tolist())))
vocab = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=3)
print(vocab.lookup(tf.constant(["banana", "kiwi", "mango", "apple", "zzz"])))
print(vocab.size())
ints = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([10, 20, 30], [1.5, 2.5, 3.5]), -1.0)
print(ints.lookup(tf.constant([20, 5, 30])))
ivocab = tf.lookup.StaticVocabularyTable(
    tf.lookup.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 4)
print(ivocab.lookup(tf.constant([20, 7, 99], tf.int64)))
d = tempfile.mkdtemp()
path = os.path.join(d, "vocab.txt")
with open(path, "w") as f:
    f.write("red\ngreen\nblue\n")
ft = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
    path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
print(ft.lookup(tf.constant(["blue", "red", "pink"])))
rev = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
    path, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE),
    "UNK")
print(rev.lookup(tf.constant([2, 0, 7], tf.int64)))
m = tf.lookup.experimental.MutableHashTable(key_dtype=tf.string, value_dtype=tf.int64, default_value=-1)
m.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
print(m.lookup(tf.constant(["a", "c", "b"])), m.size())
m.remove(tf.constant(["a"]))
print(m.lookup(tf.constant(["a", "b"])), m.size())
ds = tf.data.Dataset.from_tensor_slices(["apple", "kiwi", "cherry"]).map(lambda s: table.lookup(s))
print([int(x) for x in ds])
@tf.function
def f(x):
    return ints.lookup(x) * 2.0
print(f(tf.constant([10, 11])))
try:
    table.lookup(tf.constant([1, 2]))
except Exception as e:
    print(type(e).__name__)

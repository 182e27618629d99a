"""Windows are datasets (_VariantDataset); flat_map batches them into tensors."""
import tensorflow as tf

windows = tf.data.Dataset.range(7).window(3, shift=2, drop_remainder=True)
print(windows.element_spec)
print(next(iter(windows)))


def batched(window):
    print("window got", window)
    return window.batch(3)


flat = windows.flat_map(batched)
print(flat.element_spec)
print([w.tolist() for w in flat.as_numpy_iterator()])
pairs = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3, 4]}, [1.0, 2.0, 3.0, 4.0])).window(2)
print(pairs.element_spec)


def zipped(d, y):
    print("pair windows", d, y)
    return tf.data.Dataset.zip((d["a"].batch(2), y.batch(2)))


for a, y in pairs.flat_map(zipped):
    print(a.numpy().tolist(), y.numpy().tolist())
series = tf.data.Dataset.range(10).window(4, shift=1, drop_remainder=True)
series = series.flat_map(lambda w: w.batch(4)).map(lambda w: (w[:-1], w[-1]))
for x, y in series.take(3):
    print(x.numpy().tolist(), y.numpy())

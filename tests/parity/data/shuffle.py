"""shuffle keeps the elements (the order depends on the seed)."""
import tensorflow as tf

ds = tf.data.Dataset.range(10).shuffle(10, seed=1)
values = [int(x) for x in ds]
print(sorted(values))
print(len(values))
print(ds.element_spec)
epochs = [sorted(int(x) for x in ds) for _ in range(2)]
print(epochs[0] == epochs[1])

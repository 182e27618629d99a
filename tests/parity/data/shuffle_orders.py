"""Seeded shuffles give TensorFlow's element orders: op and global seeds, buffers smaller than, equal
to and larger than the data, several epochs, a fixed order, repeat, batch, arrays and map."""
import numpy as np
import tensorflow as tf


def show(tag, ds):
    print(tag, [int(x) for x in ds])


for size in (3, 10, 25):
    ds = tf.data.Dataset.range(10).shuffle(size, seed=7)
    for epoch in range(3):
        show(f"buffer {size} epoch {epoch}", ds)
    fixed = tf.data.Dataset.range(10).shuffle(size, seed=7, reshuffle_each_iteration=False)
    show("fixed", fixed)
    show("fixed again", fixed)
    show("fixed repeat", fixed.repeat(2))
    show("shuffle repeat", tf.data.Dataset.range(10).shuffle(size, seed=7).repeat(3))
    show("repeat shuffle", tf.data.Dataset.range(7).repeat(2).shuffle(size, seed=7))

tf.random.set_seed(11)
show("global seed", tf.data.Dataset.range(12).shuffle(5))
show("global seed, next op seed", tf.data.Dataset.range(12).shuffle(12))
tf.random.uniform([2])
show("after a random op", tf.data.Dataset.range(12).shuffle(12))
show("global and op seed", tf.data.Dataset.range(12).shuffle(4, seed=1))
ds = tf.data.Dataset.range(12).shuffle(4)
show("epoch 1", ds)
show("epoch 2", ds)

tf.random.set_seed(0)
show("seeds 0, 0", tf.data.Dataset.range(12).shuffle(12, seed=0))

tf.random.set_seed(123)
x = np.arange(40).reshape(20, 2) * 3
ds = tf.data.Dataset.from_tensor_slices((x, np.arange(20))).shuffle(8, seed=4).batch(6)
for epoch in range(2):
    for bx, by in ds:
        print("arrays", epoch, bx.numpy()[:, 0].tolist(), by.numpy().tolist())
show("arrays repeat", tf.data.Dataset.from_tensor_slices(np.arange(15)).shuffle(15, seed=2).repeat(2))
show("after map", tf.data.Dataset.range(15).map(lambda v: v * 2).shuffle(6, seed=9))
ds = tf.data.Dataset.range(9).shuffle(9, seed=5).batch(4)
print("batches", [b.numpy().tolist() for b in ds], [b.numpy().tolist() for b in ds])
big = tf.data.Dataset.range(1000).shuffle(100, seed=3)
print("1000 elements", [int(v) for v in big.take(12)])
print("checksum", int(big.reduce(np.int64(0), lambda a, v: a * 31 % 1000003 + v)))

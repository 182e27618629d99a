"""tf.data.experimental's function forms of transformations (apply), and its dataset builders."""
import tensorflow as tf

E = tf.data.experimental
D = tf.data.Dataset


def l(ds):  # noqa: E743
    return [x.tolist() if hasattr(x, "tolist") else x for x in ds.as_numpy_iterator()]


print(l(D.from_tensor_slices([1, 2, 1, 3, 2]).apply(E.unique())))
print(l(D.from_tensor_slices([[1, 2], [3, 4]]).apply(E.unbatch())))
print(l(D.range(3).apply(E.enumerate_dataset(5))))
print(l(D.range(5).apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * x)))))
print(l(D.range(10).apply(E.take_while(lambda x: x < 4))))
print(l(D.range(10).apply(E.group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3))))
print(l(D.range(6).apply(E.map_and_batch(lambda x: x * 2, 4))))
print(l(D.range(3).apply(E.parallel_interleave(lambda x: D.range(x), cycle_length=2))))
choice = D.from_tensor_slices(tf.constant([0, 1, 1, 0], tf.int64))
print(l(E.choose_from_datasets([D.from_tensors(1).repeat(), D.from_tensors(2).repeat()], choice)))
print(int(E.get_single_element(D.from_tensors(7))))
print(l(E.Counter(3, 2).take(3)))
print(l(E.from_list([(1, "a"), (2, "b")])), l(E.from_list([{"x": [1., 2.]}, {"x": [3., 4.]}])))
shuffled = l(D.range(4).apply(E.shuffle_and_repeat(4, count=2, seed=1)))
print(len(shuffled), sorted(shuffled))
rows = D.range(8).map(lambda x: tf.fill([x % 3 + 1], x))
print(l(rows.apply(E.bucket_by_sequence_length(lambda row: tf.shape(row)[0], [2], [2, 2]))))
print(len(l(E.sample_from_datasets([D.range(3), D.range(10, 13)], seed=1))))
print(E.RandomDataset(seed=1).take(2).element_spec.dtype == tf.int64)

"""A dataset function is traced once, when the transformation is made: print shows then, once."""
import tensorflow as tf

features = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]})


def to_pair(d):
    print("tracing to_pair", d["a"], d["b"])
    y = d["a"] * 2
    print("y is", y)
    return y, d["b"]


pairs = features.map(to_pair)
print("map made")
print(pairs.element_spec)
batched = pairs.batch(2).map(lambda y, b: (print("batched", y, b), y)[1])
print([v.tolist() for v in batched.as_numpy_iterator()])
print([v.tolist() for v in batched.as_numpy_iterator()])
evens = tf.data.Dataset.range(6).filter(lambda x: (print("predicate", x), x % 2 == 0)[1])
print(list(evens.as_numpy_iterator()), list(evens.as_numpy_iterator()))
zero = tf.constant(0, tf.int64)
sums = tf.data.Dataset.range(4).scan(zero, lambda s, x: (print("scan", s, x), (s + x, s))[1])
print(list(sums.as_numpy_iterator()))
total = tf.data.Dataset.range(4).reduce(zero, lambda s, x: (print("reduce", s, x), s + x)[1])
print(total.numpy())
parallel = tf.data.Dataset.range(4).map(lambda x: (print("parallel", x), x + 1)[1],
                                        num_parallel_calls=tf.data.AUTOTUNE)
print(sorted(parallel.as_numpy_iterator()))
for bad in (lambda x: x + "a", lambda x: x):
    try:
        tf.data.Dataset.range(0).map(bad).filter(bad)
        print("made")
    except (TypeError, ValueError) as e:
        print(type(e).__name__)

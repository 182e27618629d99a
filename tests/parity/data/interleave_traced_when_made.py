"""interleave traces its function once when made, whatever its cycle, block and parallelism."""
import tensorflow as tf


def repeated(x):
    print("interleave got", x)
    return tf.data.Dataset.from_tensors(x).repeat(3)


for parallel in (None, 2, tf.data.AUTOTUNE):
    ds = tf.data.Dataset.range(1, 5).interleave(repeated, cycle_length=2, block_length=2,
                                                num_parallel_calls=parallel, deterministic=True)
    print("made", parallel is None)
    print(ds.element_spec)
    print(list(ds.as_numpy_iterator()))


def ranges(x):
    print("ranges got", x)
    return tf.data.Dataset.range(x).map(lambda y: (print("inner", y), y * 10)[1])


nested = tf.data.Dataset.range(4).interleave(ranges, cycle_length=3)
print(list(nested.as_numpy_iterator()))
names = tf.data.Dataset.from_tensor_slices(["a", "b"])
suffixed = names.interleave(lambda f: tf.data.Dataset.from_tensors(f + "!").repeat(2), cycle_length=2)
print(suffixed.element_spec, list(suffixed.as_numpy_iterator()))

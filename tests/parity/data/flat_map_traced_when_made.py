"""flat_map traces its function once when made: print shows the symbolic argument, once."""
import tensorflow as tf

rows = tf.data.Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]])


def doubled_slices(x):
    print("flat_map got", x)
    return tf.data.Dataset.from_tensor_slices(x * 2)


flat = rows.flat_map(doubled_slices)
print("flat_map made")
print(flat.element_spec)
print(list(flat.as_numpy_iterator()))
print(list(flat.as_numpy_iterator()))
print(flat)
pairs = tf.data.Dataset.from_tensor_slices(({"a": [1, 2]}, [3.0, 4.0]))


def both(d, y):
    print("pair", d, y)
    return tf.data.Dataset.from_tensors((d["a"], y))


print(pairs.flat_map(both).element_spec)
print(tf.data.Dataset.range(5).batch(2).flat_map(tf.data.Dataset.from_tensors).element_spec)
for bad in (lambda x: [x], lambda x: tf.data.Dataset.range(x + "a")):
    try:
        tf.data.Dataset.range(3).flat_map(bad)
        print("made")
    except (TypeError, ValueError) as e:
        print(type(e).__name__)

"""from_generator with args= and dict elements."""
import tensorflow as tf


def count(n):
    for i in range(n):
        yield {"i": i, "sq": i * i}

ds = tf.data.Dataset.from_generator(count, args=[4], output_signature={"i": tf.TensorSpec((), tf.int32),
                                                                      "sq": tf.TensorSpec((), tf.int32)})
print(ds.element_spec)
print([(int(d["i"]), int(d["sq"])) for d in ds])

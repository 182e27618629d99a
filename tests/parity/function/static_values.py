"""tf.get_static_value inside a tf.function: only what TF's graph folds (constants, static shapes
and what casts, stacks or passes them on) has a value."""
import numpy as np
import tensorflow as tf

small = tf.constant([1, 2, 3])


@tf.function
def s(x):
    c = tf.constant(3.0)
    values = {
        "input": x, "input*2": x * 2, "const": c, "const+1": c + 1.0, "shape": tf.shape(x),
        "size": tf.size(x), "rank": tf.rank(x), "cast": tf.cast(tf.shape(x), tf.float32),
        "stack": tf.stack([tf.size(x), 4]), "concat": tf.concat([tf.shape(x), [5]], 0),
        "fill": tf.fill([2], 7), "equal": tf.equal(tf.size(x), 2), "identity": tf.identity(c),
        "range": tf.range(3), "zeros": tf.zeros([2]), "square": tf.square(c), "eager": small,
        "list": [1, 2], "reshape": tf.reshape(tf.constant([1, 2]), [2, 1]),
        "stop_gradient": tf.stop_gradient(c), "shape_slice": tf.shape(x)[0],
    }
    for key, value in values.items():
        found = tf.get_static_value(value)
        print(key, None if found is None else np.asarray(found).tolist())
    return x


s(tf.constant([1.0, 2.0]))
print(tf.get_static_value(tf.constant(3.0) + 1.0))

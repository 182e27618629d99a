import numpy as np
import tensorflow as tf

# The class of an error depends on where TF finds the mistake: eagerly the op raises
# InvalidArgumentError; inside tf.function shape mistakes are ValueError and dtype mistakes
# TypeError (found while tracing), while checks of values stay InvalidArgumentError.
cases = {
    "reshape": lambda: tf.reshape(tf.ones((4,)), (3,)),
    "matmul": lambda: tf.matmul(tf.ones((2, 3)), tf.ones((2, 3))),
    "broadcast": lambda: tf.ones((2, 3)) + tf.ones((4,)),
    "concat_shapes": lambda: tf.concat([tf.ones((2, 3)), tf.ones((2, 4))], 0),
    "concat_dtypes": lambda: tf.concat([tf.ones((2,)), tf.ones((2,), tf.int32)], 0),
    "squeeze": lambda: tf.squeeze(tf.ones((2, 3)), 0),
    "split": lambda: tf.split(tf.ones((5,)), 2),
    "reduce_axis": lambda: tf.reduce_sum(tf.ones((2, 3)), axis=2),
    "one_hot_float": lambda: tf.one_hot(tf.constant([1.5]), 3),
    "mean_of_strings": lambda: tf.reduce_mean(tf.constant(["a"])),
    "gather_out_of_range": lambda: tf.gather(tf.ones((3,)), 5),
    "scatter_out_of_range": lambda: tf.tensor_scatter_nd_update(tf.zeros((3,)), [[7]], [1.0]),
    "assert_equal": lambda: tf.debugging.assert_equal(tf.constant(1), tf.constant(2)),
    "check_numerics": lambda: tf.debugging.check_numerics(tf.constant(np.nan), "m"),
    "to_number": lambda: tf.strings.to_number("abc"),
}
for name, fn in cases.items():
    for mode in ("eager", "function"):
        try:
            fn() if mode == "eager" else tf.function(fn)()
            print(name, mode, "ok")
        except Exception as e:
            print(name, mode, type(e).__name__)
for n in (4, 0):
    try:
        tf.data.Dataset.range(n).reduce(0, lambda s, x: s + x)
    except Exception as e:
        print("reduce int32 state", n, type(e).__name__)

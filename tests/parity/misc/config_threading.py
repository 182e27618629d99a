"""tf.config.threading: thread-pool sizes set before the first op, refused after it; the deprecated
experimental_run_functions_eagerly pair."""
import tensorflow as tf

print(tf.config.threading.get_inter_op_parallelism_threads())
print(tf.config.threading.get_intra_op_parallelism_threads())
tf.config.threading.set_inter_op_parallelism_threads(2)
tf.config.threading.set_intra_op_parallelism_threads(4)
print(tf.config.threading.get_inter_op_parallelism_threads())
print(tf.config.threading.get_intra_op_parallelism_threads())
print(tf.constant([1.0, 2.0]) * 3)
for setter in (tf.config.threading.set_inter_op_parallelism_threads,
               tf.config.threading.set_intra_op_parallelism_threads):
    try:
        setter(1)
    except RuntimeError as e:
        print(type(e).__name__, e)
print(tf.config.threading.get_intra_op_parallelism_threads())

tf.config.experimental_run_functions_eagerly(True)
print(tf.config.experimental_functions_run_eagerly(), tf.config.functions_run_eagerly())


@tf.function
def f(x):
    print("running with", x)
    return x + 1


print(f(tf.constant(1)))
print(f(tf.constant(2)))
tf.config.experimental_run_functions_eagerly(False)
print(tf.config.experimental_functions_run_eagerly())

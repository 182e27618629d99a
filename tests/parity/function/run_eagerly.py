"""config.run_functions_eagerly makes .numpy() work inside a function."""
import tensorflow as tf


@tf.function
def f(x):
    print("python print sees", x.numpy() if tf.executing_eagerly() else "a symbolic tensor")
    return x + 1

f(tf.constant(1))
tf.config.run_functions_eagerly(True)
f(tf.constant(1))
f(tf.constant(2))
print(tf.config.functions_run_eagerly())
tf.config.run_functions_eagerly(False)
print(tf.config.functions_run_eagerly())

"""get_concrete_function with a TensorSpec, and calling the concrete function."""
import tensorflow as tf


@tf.function
def square(x):
    return x * x

cf = square.get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
print(cf(tf.ones((3, 2))))
print(cf(tf.ones((1, 2))).shape)
print(cf.structured_outputs)
print(cf.structured_input_signature)
print(square.experimental_get_tracing_count())
try:
    cf(tf.ones((3, 3)))
except Exception as e:
    print(type(e).__name__)

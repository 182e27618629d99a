"""Outputs of a concrete function with None dimensions, one of them the input itself."""
import tensorflow as tf


@tf.function
def f(x):
    return {"a": x * 2, "b": (x, x + 1)}


cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
print(cf.structured_input_signature)
print(cf.structured_outputs)
print(cf.output_shapes)
print(cf.output_dtypes)
print([o.name for o in cf.outputs])
print(cf(tf.ones([2, 3]))["b"][0].shape)


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def g(x):
    return x, tf.shape(x)


print(g.get_concrete_function().structured_outputs)
print(g(tf.constant([1, 2, 3])))

"""Concrete functions of string arguments (TF guide "Better performance with tf.function")."""
import tensorflow as tf


@tf.function
def double(a):
    print("Tracing with", a)
    return a + a


print(double(tf.constant(1)))
print(double(tf.constant(1.1)))
print(double(tf.constant("a")))
print(double(tf.constant("b")))
print(double.pretty_printed_concrete_signatures())
double_strings = double.get_concrete_function(tf.constant("a"))
print(double_strings(tf.constant("a")))
print(double_strings(a=tf.constant("b")))
from_spec = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
print(from_spec(tf.constant("c")))
print(double_strings)
print(double_strings.structured_input_signature)
print(double_strings.structured_outputs)
try:
    double_strings(tf.constant(1))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)

graph = double_strings.graph
for node in graph.as_graph_def().node:
    print(f'{node.input} -> {node.name}')
print([op.type for op in graph.get_operations()])
print(graph.inputs, graph.outputs)
print(double_strings.pretty_printed_signature())


@tf.function
def pow(a, b):
    return a ** b


square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
print(square)
print(square(tf.constant(10.0)))
try:
    square(tf.constant(10.0), b=3)
except TypeError as e:
    print(type(e).__name__)

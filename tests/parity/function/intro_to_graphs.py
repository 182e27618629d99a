"""TF's guide "Introduction to graphs and tf.function": the same values with and without a graph,
branches converted by AutoGraph, polymorphic signatures, eager-only side effects."""
import tensorflow as tf


def a_regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


a_function_that_uses_a_graph = tf.function(a_regular_function)
x1 = tf.constant([[1.0, 2.0]])
y1 = tf.constant([[2.0], [3.0]])
b1 = tf.constant(4.0)
print(a_regular_function(x1, y1, b1).numpy(), a_function_that_uses_a_graph(x1, y1, b1).numpy())


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


tf_simple_relu = tf.function(simple_relu)
print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
graph = tf_simple_relu.get_concrete_function(tf.constant(1)).graph
print([(op.name, op.type) for op in graph.get_operations()][:4])


@tf.function
def my_relu(x):
    return tf.maximum(0., x)


print(my_relu(tf.constant(5.5)))
print(my_relu([1, -1]))
print(my_relu(tf.constant([3., -3.])))
print(my_relu(tf.constant(-2.5)))
print(my_relu(tf.constant([-1., 1.])))
print(my_relu.pretty_printed_concrete_signatures())
print([op.type for op in my_relu.get_concrete_function(tf.constant(1.0)).graph.get_operations()])


@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


y_true = tf.constant([1, 9, 1, 4, 4])
y_pred = tf.constant([4, 7, 8, 0, 6])
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
print(error)
tf.config.run_functions_eagerly(True)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
tf.config.run_functions_eagerly(False)


def unused_return_eager(x):
    tf.gather(x, [1])
    return x


try:
    print(unused_return_eager(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)


@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])
    return x


print(unused_return_graph(tf.constant([0.0])))


@tf.function
def a_function_with_python_side_effect(x):
    print("Tracing!")
    return x * x + tf.constant(2)


print(a_function_with_python_side_effect(tf.constant(2)))
print(a_function_with_python_side_effect(tf.constant(3)))
print(a_function_with_python_side_effect(2))
print(a_function_with_python_side_effect(3))

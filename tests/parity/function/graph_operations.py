"""A concrete function's graph (TF guide "Introduction to graphs"): its operations, their types and
inputs, the graph's inputs and outputs, and its GraphDef's nodes."""
import tensorflow as tf


def inner_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x


@tf.function
def outer_function(x):
    y = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)
    return inner_function(x, y, b)


@tf.function
def a_function(x, y, b):
    return inner_function(x, y, b)


print(outer_function(tf.constant([[1.0, 2.0]])).numpy())
g = a_function.get_concrete_function(tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]]),
                                     tf.constant(4.0)).graph
print(type(g).__name__)
print([op.name for op in g.get_operations()])
print([op.type for op in g.get_operations()])
print(g.inputs)
print(g.outputs)
for node in g.as_graph_def().node:
    print(f"{node.input} -> {node.name} ({node.op})")
matmul = g.get_operation_by_name("MatMul")
print(matmul.type, [t.name for t in matmul.inputs], [t.name for t in matmul.outputs])
print(matmul.outputs[0].shape, matmul.outputs[0].dtype)
print(g.get_tensor_by_name("add:0").op.name)


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])))
ops = next_collatz.get_concrete_function().graph.get_operations()
print([(op.name, op.type) for op in ops])
print([[t.name for t in op.inputs] for op in ops])


@tf.function
def train(dataset):
    loss = tf.constant(0)
    for x, y in dataset:
        loss += tf.abs(y - x)
    return loss


def measure_graph_size(f, *args):
    g = f.get_concrete_function(*args).graph
    print("{}({}) contains {} nodes in its graph".format(
        f.__name__, ', '.join(map(str, args)), len(g.as_graph_def().node)))


measure_graph_size(train, [(1, 1)] * 3)
measure_graph_size(train, [(1, 1)] * 10)

v = tf.Variable(2.0)


@tf.function
def scaled(x):
    return x * v


ops = scaled.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph.get_operations()
print([(op.name, op.type) for op in ops][:4])
print(scaled.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph.inputs)

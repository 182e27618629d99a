"""`concrete.graph` (`companion._staging._func_graph.FuncGraph`): TF 2.21's node view of a traced function.

Expected node lists are TF 2.21's, printed by the guides' code ("Introduction to graphs and
tf.function", "Better performance with tf.function") under TensorFlow.
"""

import pytest

import companion as tf


def _matmul_add_graph():
    @tf.function
    def f(x, y, b):
        return tf.matmul(x, y) + b

    return f.get_concrete_function(tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]]),
                                   tf.constant(4.0)).graph


def test_operations_have_tfs_names_and_types():
    g = _matmul_add_graph()
    assert type(g).__name__ == "FuncGraph"
    assert [(op.name, op.type) for op in g.get_operations()] == [
        ("x", "Placeholder"), ("y", "Placeholder"), ("b", "Placeholder"), ("MatMul", "MatMul"),
        ("add", "AddV2"), ("Identity", "Identity")]


def test_graph_def_nodes_name_their_inputs():
    nodes = _matmul_add_graph().as_graph_def().node
    assert [(n.name, n.op, n.input) for n in nodes] == [
        ("x", "Placeholder", []), ("y", "Placeholder", []), ("b", "Placeholder", []),
        ("MatMul", "MatMul", ["x", "y"]), ("add", "AddV2", ["MatMul", "b"]),
        ("Identity", "Identity", ["add"])]


def test_graph_def_prints_as_protobuf_text():
    text = str(_matmul_add_graph().as_graph_def())
    assert 'node {\n  name: "MatMul"\n  op: "MatMul"\n  input: "x"\n  input: "y"\n' in text
    assert 'key: "dtype"' in text and "type: DT_FLOAT" in text


def test_operation_inputs_and_outputs_are_graph_tensors():
    g = _matmul_add_graph()
    matmul = g.get_operation_by_name("MatMul")
    assert [t.name for t in matmul.inputs] == ["x:0", "y:0"]
    (out,) = matmul.outputs
    assert out.name == "MatMul:0" and out.shape == (1, 1) and out.dtype == tf.float32
    assert g.get_tensor_by_name("add:0").op.type == "AddV2"
    assert [t.name for t in g.inputs] == ["x:0", "y:0", "b:0"]
    assert [t.name for t in g.outputs] == ["Identity:0"]


def test_unknown_names_raise_clear_errors():
    g = _matmul_add_graph()
    with pytest.raises(KeyError, match="nope"):
        g.get_operation_by_name("nope")
    with pytest.raises(ValueError, match="op_name:output_index"):
        g.get_tensor_by_name("MatMul")
    with pytest.raises(KeyError, match="1 output"):
        g.get_tensor_by_name("MatMul:3")


def test_each_op_converts_its_own_python_operands():
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    ops = next_collatz.get_concrete_function().graph.get_operations()
    assert [(op.name, op.type) for op in ops] == [
        ("x", "Placeholder"), ("mod/y", "Const"), ("mod", "FloorMod"), ("Equal/y", "Const"),
        ("Equal", "Equal"), ("floordiv/y", "Const"), ("floordiv", "FloorDiv"), ("mul/x", "Const"),
        ("mul", "Mul"), ("add/y", "Const"), ("add", "AddV2"), ("SelectV2", "SelectV2"),
        ("Identity", "Identity")]


def test_a_captured_variable_is_a_resource_placeholder_read_by_its_op():
    v = tf.Variable(2.0)

    @tf.function
    def scaled(x):
        return x * v

    g = scaled.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph
    assert [(op.name, op.type) for op in g.get_operations()][:4] == [
        ("x", "Placeholder"), ("mul/ReadVariableOp/resource", "Placeholder"),
        ("mul/ReadVariableOp", "ReadVariableOp"), ("mul", "Mul")]
    handle = g.get_tensor_by_name("mul/ReadVariableOp/resource:0")
    assert handle.dtype == "resource"
    assert [t.name for t in g.get_operation_by_name("mul").inputs] == ["x:0", "mul/ReadVariableOp:0"]


def test_python_loops_unroll_and_traced_branches_are_one_node():
    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss

    # TF 2.21: 11 and 32 nodes (the guide's measure_graph_size)
    assert len(train.get_concrete_function([(1, 1)] * 3).graph.as_graph_def().node) == 11
    assert len(train.get_concrete_function([(1, 1)] * 10).graph.as_graph_def().node) == 32

    @tf.function
    def relu(x):
        if tf.greater(x, 0):
            return x
        return 0

    types = [op.type for op in relu.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert types[:4] == ["Placeholder", "Const", "Greater", "StatelessIf"]


def test_string_arguments_are_placeholders_and_tensor_specs():
    @tf.function
    def double(a):
        return a + a

    concrete = double.get_concrete_function(tf.constant("a"))
    assert [(n.input, n.name) for n in concrete.graph.as_graph_def().node] == [
        ([], "a"), (["a", "a"], "add"), (["add"], "Identity")]
    assert [op.type for op in concrete.graph.get_operations()] == ["Placeholder", "Add", "Identity"]
    assert concrete.structured_input_signature == ((tf.TensorSpec([], tf.string, name="a"),), {})
    assert [t.name for t in concrete.graph.inputs] == ["a:0"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="string tensor"):
        concrete(tf.constant(1))


def test_the_jaxpr_view_stays():
    g = _matmul_add_graph()
    assert "dot_general" in g.operations() and "dot_general" in g.as_text()


def test_a_tensor_being_traced_knows_its_operation_and_graph():
    seen = {}

    @tf.function
    def f(x):
        y = x * 2
        seen.update(op=(y.op.type, y.op.name, [t.name for t in y.op.inputs]),
                    graph=[op.name for op in y.graph.get_operations()])
        return y

    f(tf.constant([1.0, 2.0]))
    assert seen["op"] == ("Mul", "mul", ["x:0", "mul/y:0"])  # TF 2.21's
    assert seen["graph"] == ["x", "mul/y", "mul"]
    with pytest.raises(AttributeError, match="eager execution"):
        tf.constant(1.0).graph

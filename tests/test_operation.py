"""`Operation`: what a Variable write with read_value=False, tf.group and tf.no_op return inside a
function (TF 2.21's observed output as the oracle)."""

import pytest

import companion as tf


def test_eager_writes_without_read_value_return_none():
    v = tf.Variable(1.0)
    assert v.assign(2.0, read_value=False) is None
    assert v.assign_add(2.0, read_value=False) is None
    assert v.assign_sub(1.0, read_value=False) is None
    assert float(v) == 3.0
    assert tf.group(tf.constant(1)) is None and tf.no_op() is None


def test_writes_inside_a_function_return_operations():
    v = tf.Variable(1.0)
    seen = []

    @tf.function
    def f(x):
        a = v.assign(5.0, read_value=False)
        b = v.assign_add(x, read_value=False)
        c = v.assign_sub(1.0, read_value=False, name="sub")
        g = tf.group(a, b)
        n = tf.no_op()
        seen.extend(f"{o!r} {o.name} {o.type} {len(o.inputs)} {len(o.outputs)}" for o in (a, b, c, g, n))
        assert all(isinstance(o, tf.Operation) for o in (a, b, c, g, n))
        return x

    f(tf.constant(1.0))
    assert seen == [
        "<companion.Operation 'AssignVariableOp' type=AssignVariableOp> AssignVariableOp "
        "AssignVariableOp 2 0",
        "<companion.Operation 'AssignAddVariableOp' type=AssignAddVariableOp> AssignAddVariableOp "
        "AssignAddVariableOp 2 0",
        "<companion.Operation 'sub' type=AssignSubVariableOp> sub AssignSubVariableOp 2 0",
        "<companion.Operation 'group_deps' type=NoOp> group_deps NoOp 0 0",
        "<companion.Operation 'NoOp' type=NoOp> NoOp NoOp 0 0",
    ]
    assert float(v) == 5.0


def test_an_operation_prints_as_tfs_node_def():
    v = tf.Variable(1.0)
    w = tf.Variable([1, 2])
    texts = []

    @tf.function
    def f(x):
        a = v.assign_add(x * 2, read_value=False)
        d = w.assign([3, 4], read_value=False)
        texts.extend([str(a), str(d), str(tf.group([a, d], name="both"))])
        with tf.control_dependencies([a]):
            return v + 1

    assert float(f(tf.constant(1.0))) == 4.0
    assert texts[0] == ('name: "AssignAddVariableOp"\nop: "AssignAddVariableOp"\n'
                        'input: "AssignAddVariableOp/resource"\ninput: "mul"\n'
                        'attr {\n  key: "dtype"\n  value {\n    type: DT_FLOAT\n  }\n}\n')
    assert texts[1] == ('name: "AssignVariableOp"\nop: "AssignVariableOp"\n'
                        'input: "AssignVariableOp/resource"\ninput: "Const"\n'
                        'attr {\n  key: "validate_shape"\n  value {\n    b: true\n  }\n}\n'
                        'attr {\n  key: "dtype"\n  value {\n    type: DT_INT32\n  }\n}\n')
    assert texts[2] == 'name: "both"\nop: "NoOp"\ninput: "^AssignAddVariableOp"\ninput: "^AssignVariableOp"\n'


@pytest.mark.parametrize("returned", ["write", "group", "object"])
def test_returning_a_non_tensor_is_tfs_type_error(returned):
    v = tf.Variable(1.0)

    @tf.function
    def h():
        if returned == "write":
            return v.assign(8.0, read_value=False)
        if returned == "group":
            return [tf.group()]
        return object()

    with pytest.raises(TypeError, match=r"must return zero or more Tensors .* in compilation of "
                                        r"<function test_returning_a_non_tensor_is_tfs_type_error.<locals>.h "
                                        r"at 0x[0-9a-f]+>, found return value of type (Operation|object)"):
        h()


def test_traced_tensors_have_tfs_name_and_op():
    seen = []

    @tf.function
    def f(x):
        y = x * 2
        seen.append((x.name, x.op.type, y.name, y.op.name, y.op.type))
        return y

    f(tf.constant(1.0))
    assert seen == [("x:0", "Placeholder", "mul:0", "mul", "Mul")]
    with pytest.raises(AttributeError, match="Tensor.name is undefined when eager execution is enabled"):
        tf.constant(1.0).name
    with pytest.raises(AttributeError, match="Tensor.op is undefined"):
        tf.constant(1.0).op


def test_concrete_inputs_end_with_captured_variable_handles_named_by_first_use():
    """TF 2.21 names a captured Variable's handle after the operation that first uses it."""
    w = tf.Variable([[1.0], [2.0]])
    b = tf.Variable([0.5])
    s = tf.Variable(2.0)
    u = tf.Variable(3.0)

    @tf.function
    def f(x):
        y = tf.matmul(x, w) + b
        t = s.read_value() * 2
        u.assign_add(1.0)
        return y * t + u

    cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
    assert [repr(t) for t in cf.inputs] == [
        "<companion.Tensor 'x:0' shape=(None, 2) dtype=float32>",
        "<companion.Tensor 'MatMul/ReadVariableOp/resource:0' shape=() dtype=resource>",
        "<companion.Tensor 'add/ReadVariableOp/resource:0' shape=() dtype=resource>",
        "<companion.Tensor 'Read/ReadVariableOp/resource:0' shape=() dtype=resource>",
        "<companion.Tensor 'AssignAddVariableOp/resource:0' shape=() dtype=resource>",
    ]
    assert len(cf.captured_inputs) == 4
    assert cf(tf.constant([[1.0, 1.0]])).numpy().tolist() == [[18.0]]

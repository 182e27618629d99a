"""Tensors printed while a `function` traces show TF's graph names (`companion._core._tensor_names`).

Every expected line below is what TF 2.21 printed for the same function (run in a TF venv).
"""

import pytest

import companion as tf


def traced_prints(fn, *args, **kwargs):
    """What ``print`` wrote while ``fn`` traced on ``args`` (one list entry per print)."""
    lines = []
    original = fn

    def recorder(*values):
        lines.append(" ".join(str(v) for v in values))

    compiled = tf.function(lambda *a, **k: original(recorder, *a, **k))
    compiled(*args, **kwargs)
    return lines


def test_inputs_are_named_after_their_parameters():
    seen = []

    @tf.function
    def f(x, pair, *rest, k=None):
        seen.append(" ".join(str(v) for v in (x, pair, rest, k)))
        return x

    f(tf.constant(1.0), (tf.constant(2.0), tf.constant(3.0)), tf.constant(5.0), k=tf.constant(7.0))
    assert seen == [
        'Tensor("x:0", shape=(), dtype=float32) '
        "(<companion.Tensor 'pair:0' shape=() dtype=float32>, <companion.Tensor 'pair_1:0' shape=() "
        "dtype=float32>) (<companion.Tensor 'rest_0:0' shape=() dtype=float32>,) "
        'Tensor("k:0", shape=(), dtype=float32)']


def test_ops_are_named_by_type_and_made_unique():
    def body(show, x):
        y = x * 2
        z = x * 3 + y
        show(y, z, tf.matmul(tf.reshape(x, [1, 1]), tf.ones([1, 1])))
        show(tf.reduce_sum(z), tf.nn.relu(z), tf.square(z), z > 0, tf.cast(z, tf.int32), -z, z / 2, z - 1)
        show(tf.constant(3.0), tf.zeros([2]), tf.ones_like(z), tf.range(3), tf.stack([z, z]))
        with tf.name_scope("scope"):
            show(z + 1)
        return z

    assert traced_prints(body, tf.constant(1.0)) == [
        'Tensor("mul:0", shape=(), dtype=float32) Tensor("add:0", shape=(), dtype=float32) '
        'Tensor("MatMul:0", shape=(1, 1), dtype=float32)',
        'Tensor("Sum:0", shape=(), dtype=float32) Tensor("Relu:0", shape=(), dtype=float32) '
        'Tensor("Square:0", shape=(), dtype=float32) Tensor("Greater:0", shape=(), dtype=bool) '
        'Tensor("Cast:0", shape=(), dtype=int32) Tensor("Neg:0", shape=(), dtype=float32) '
        'Tensor("truediv:0", shape=(), dtype=float32) Tensor("sub:0", shape=(), dtype=float32)',
        'Tensor("Const:0", shape=(), dtype=float32) Tensor("zeros:0", shape=(2,), dtype=float32) '
        'Tensor("ones_like:0", shape=(), dtype=float32) Tensor("range:0", shape=(3,), dtype=int32) '
        'Tensor("stack:0", shape=(2,), dtype=float32)',
        'Tensor("scope/add:0", shape=(), dtype=float32)']


def test_a_spec_name_names_its_input():
    seen = []

    signature = [tf.TensorSpec([None], tf.float32, name="inp"), tf.TensorSpec([], tf.float32)]

    @tf.function(input_signature=signature)
    def g(a, b):
        seen.append(f"{a} {b}")
        return a

    g(tf.constant([1.0]), tf.constant(1.0))
    assert seen == ['Tensor("inp:0", shape=(None,), dtype=float32) Tensor("b:0", shape=(), dtype=float32)']


def test_branches_and_loop_bodies_are_graphs_of_their_own():
    seen = []

    @tf.function
    def h(x):
        if x > 0:
            y = x * 2
            seen.append(f"in branch {y}")
        else:
            y = x
        for i in tf.range(3):
            seen.append(f"loop {i}")
            y += tf.cast(i, tf.float32)
        return y

    assert float(h(tf.constant(1.0))) == 5.0
    assert seen == ['in branch Tensor("cond/mul:0", shape=(), dtype=float32)',
                    'loop Tensor("while/Placeholder:0", shape=(), dtype=int32)']


def test_names_end_with_the_trace_and_values_print_again():
    kept = []

    @tf.function
    def f(x):
        kept.append(tf.constant(2.0))
        return x

    f(tf.constant(1.0))
    assert str(kept[0]) == "companion.Tensor(2.0, shape=(), dtype=float32)"


def test_lists_of_tensors_are_packed_inside_a_function():
    @tf.function
    def f(z):
        packed = tf.convert_to_tensor([[z, 1.0], [2.0, z]])
        return packed, tf.concat([[z], [z * 2]], 0), [z, z] + tf.ones([2])

    packed, joined, added = f(tf.constant(3.0))
    assert packed.numpy().tolist() == [[3.0, 1.0], [2.0, 3.0]]
    assert joined.numpy().tolist() == [3.0, 6.0]
    assert added.numpy().tolist() == [4.0, 4.0]


def test_constant_refuses_traced_tensors_as_tf_does():
    @tf.function
    def f(z):
        return tf.constant([z, z])

    with pytest.raises(TypeError, match="Expected any non-tensor type, but got a tensor instead"):
        f(tf.constant(1.0))


def test_range_inside_a_function_is_a_tensor():
    shapes = []

    @tf.function
    def f(n):
        shapes.append(tf.range(n).shape)
        x = tf.range(3)
        total = tf.constant(0)
        for i in tf.range(n):  # a bound known only at run time: one compiled loop
            total += i
        return x * 2, tf.reduce_sum(tf.range(5)), tf.range(0.0, 1.0, 0.25), total

    doubled, summed, floats, total = f(tf.constant(4))
    assert doubled.numpy().tolist() == [0, 2, 4]
    assert int(summed) == 10
    assert floats.numpy().tolist() == [0.0, 0.25, 0.5, 0.75]
    assert int(total) == 6
    assert shapes[0].as_list() == [None]


def test_given_names_functions_and_operators_and_case_insensitive_uniqueness():
    """TF 2.21: ``name=`` names the node; tf.add names it ``Add`` where ``+`` gives ``add``; names are
    unique ignoring case (``Add`` then ``add_1``, ``MatMul`` then ``matmul_1``)."""
    import companion as tf_

    seen = []

    @tf_.function
    def f(x):
        outs = [tf_.reduce_sum(x, name="total"), tf_.add(x, 1, name="plus"), tf_.add(x, 2, name="plus"),
                tf_.add(x, 1), x + 1, tf_.multiply(x, 2), x * 2, tf_.pow(x, 2), x ** 2,
                tf_.math.floormod(x, 2.0), x % 2, tf_.cast(x, tf_.int32, name="to_int"),
                tf_.sqrt(x, name="root"), tf_.matmul(tf_.reshape(x, [1, 2]), tf_.reshape(x, [2, 1])),
                tf_.reshape(x, [2, 1]) @ tf_.reshape(x, [1, 2])]
        with tf_.name_scope("block"):
            outs.append(tf_.multiply(x, 2, name="double"))
        seen.extend(o.name for o in outs)
        seen.append(outs[3].op.type)
        return x

    f(tf_.constant([1.0, 2.0]))
    assert seen == ["total:0", "plus:0", "plus_1:0", "Add:0", "add_1:0", "Mul:0", "mul_1:0", "Pow:0",
                    "pow_1:0", "FloorMod:0", "mod:0", "to_int:0", "root:0", "MatMul:0", "matmul_1:0",
                    "block/double:0", "AddV2"]

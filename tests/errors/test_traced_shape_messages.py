"""Shape mistakes met while a function traces say what TF's shape inference says.

Oracle: TF 2.21, observed on the same functions: the error (ValueError, in its "in user code:"
form) ends with ``<reason> for '{{node NAME}} = OpType[attrs](inputs)' with input shapes: ...``,
naming the node and its inputs as the function's graph does. Eagerly, companion's own messages
are unchanged.
"""

import pytest

import companion as tf


def _f(*shapes):
    return [tf.ones(s) for s in shapes]


CASES = [
    (lambda a, b: tf.matmul(a, b), _f([2, 3], [4, 5]),
     "Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false, "
     "grad_b=false, transpose_a=false, transpose_b=false](a, b)' with input shapes: [2,3], [4,5]."),
    (lambda a, b: a @ b, _f([2, 3], [4, 5]),
     "Dimensions must be equal, but are 3 and 4 for '{{node matmul}} = MatMul[T=DT_FLOAT, grad_a=false, "
     "grad_b=false, transpose_a=false, transpose_b=false](a, b)' with input shapes: [2,3], [4,5]."),
    (lambda a, b: tf.matmul(a, b, transpose_b=True), _f([2, 3], [4, 5]),
     "Dimensions must be equal, but are 3 and 5 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false, "
     "grad_b=false, transpose_a=false, transpose_b=true](a, b)' with input shapes: [2,3], [4,5]."),
    (lambda a, b: tf.matmul(a, b), _f([2, 2, 3], [3, 3, 5]),
     "Dimensions must be equal, but are 2 and 3 for '{{node MatMul}} = BatchMatMulV2[T=DT_FLOAT, "
     "adj_x=false, adj_y=false, grad_x=false, grad_y=false](a, b)' with input shapes: [2,2,3], [3,3,5]."),
    (lambda a, b: tf.matmul(a, b, name="prod"), _f([2, 3], [4, 5]),
     "{{node prod}} = MatMul"),
    (lambda a: tf.reshape(a, [4, 2]), _f([2, 3]),
     "Cannot reshape a tensor with 6 elements to shape [4,2] (8 elements) for '{{node Reshape}} = "
     "Reshape[T=DT_FLOAT, Tshape=DT_INT32](a, Reshape/shape)' with input shapes: [2,3], [2] and with input "
     "tensors computed as partial shapes: input[1] = [4,2]."),
    (lambda a: tf.reshape(a, [4, -1]), _f([2, 3]),
     "Dimension size must be evenly divisible by 4 but is 6 for '{{node Reshape}} = Reshape[T=DT_FLOAT, "
     "Tshape=DT_INT32](a, Reshape/shape)' with input shapes: [2,3], [2] and with input tensors computed as "
     "partial shapes: input[1] = [4,?]."),
    (lambda a, b: a + b, _f([2, 3], [4, 3]),
     "Dimensions must be equal, but are 2 and 4 for '{{node add}} = AddV2[T=DT_FLOAT](a, b)' with input "
     "shapes: [2,3], [4,3]."),
    (lambda a, b: tf.add(a, b), _f([2, 3], [4, 3]), "{{node Add}} = AddV2[T=DT_FLOAT](a, b)"),
    (lambda a, b: (a + a) + b, _f([2, 3], [2, 4]),
     "Dimensions must be equal, but are 3 and 4 for '{{node add_1}} = AddV2[T=DT_FLOAT](add, b)'"),
    (lambda a, b: a + b, _f([2, 3], [4, 2, 3, 5]), "Dimensions must be equal, but are 2 and 3 for"),
    (lambda a: a + [1.0, 2.0], _f([2, 3]),
     "Dimensions must be equal, but are 3 and 2 for '{{node add}} = AddV2[T=DT_FLOAT](a, add/y)' with input "
     "shapes: [2,3], [2]."),
    (lambda a, b: tf.nn.relu(a) * b, _f([2, 3], [2, 4]), "{{node mul}} = Mul[T=DT_FLOAT](Relu, b)"),
    (lambda a, b: a / b, _f([2, 3], [2, 4]), "{{node truediv}} = RealDiv[T=DT_FLOAT](a, b)"),
    (lambda a, b: tf.concat([a, b], 0), _f([2, 3], [3]),
     "Shape must be rank 2 but is rank 1 for '{{node concat}} = ConcatV2[N=2, T=DT_FLOAT, "
     "Tidx=DT_INT32](a, b, concat/axis)' with input shapes: [2,3], [3], []."),
    (lambda a, b: tf.concat([a, b], 1), _f([2, 3], [3, 4]),
     "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for "
     "'{{node concat}} = ConcatV2[N=2, T=DT_FLOAT, Tidx=DT_INT32](a, b, concat/axis)' with input shapes: "
     "[2,3], [3,4], [] and with computed input tensors: input[2] = <1>."),
    (lambda a, b: tf.stack([a, b]), _f([2, 3], [2, 4]),
     "Dimension 1 in both shapes must be equal, but are 3 and 4. Shapes are [2,3] and [2,4].\n\tFrom merging "
     "shape 0 with other shapes. for '{{node stack_1}} = Pack[N=2, T=DT_FLOAT, axis=0](a, b)' with input "
     "shapes: [2,3], [2,4]."),
    (lambda a, b, c: tf.stack([a, b, c], axis=1), _f([2, 3], [2, 3], [3, 3]),
     "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2,3] and [3,3].\n\tFrom merging "
     "shape 1 with other shapes. for '{{node stack}} = Pack[N=3, T=DT_FLOAT, axis=1](a, b, c)'"),
    (lambda a, b: tf.stack([a, b], 1), _f([2, 3], [3]),
     "Shapes must be equal rank, but are 2 and 1\n\tFrom merging shape 0 with other shapes. for "
     "'{{node stack}}"),
]


@pytest.mark.parametrize("fn, args, expected", CASES)
def test_a_traced_shape_mistake_says_what_tf_says(fn, args, expected):
    with pytest.raises(ValueError) as raised:
        tf.function(fn)(*args)
    assert isinstance(raised.value, tf.errors.InvalidArgumentError)  # companion's class catches it too
    assert "in user code:" in str(raised.value)
    # the "in user code:" form indents the message's lines (TF's too): compare words
    assert " ".join(expected.split()) in " ".join(str(raised.value).split())


def test_the_node_name_follows_name_scopes():
    def f(a, b):
        with tf.name_scope("blk"):
            return a * b

    with pytest.raises(ValueError, match=r"\{\{node blk/mul\}\} = Mul"):
        tf.function(f)(tf.ones([2, 3]), tf.ones([4, 5]))


def test_a_dataset_function_says_it_too():
    with pytest.raises(ValueError, match=r"'\{\{node add\}\} = AddV2\[T=DT_FLOAT\]\(ones, ones_1\)'"):
        tf.data.Dataset.range(3).map(lambda x: tf.ones([2, 3]) + tf.ones([4, 3]))


def test_eager_messages_are_companions_own():
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot be broadcast together"):
        tf.ones([2, 3]) + tf.ones([4, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        tf.matmul(tf.ones([2, 3]), tf.ones([4, 5]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 6 values"):
        tf.reshape(tf.ones([2, 3]), [4, 2])

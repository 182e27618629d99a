"""A list holding tensors, converted under a recording tape, is packed by an op the tape sees.

Oracle: TF 2.21, observed: with ``x = 1.0`` watched and ``v = Variable(3.0)``, the gradient of
``reduce_sum([x, 2 * x])`` is 3.0, of ``reduce_logsumexp([x, 2 * x])`` 1.7310586, of
``multiply([x, x], 3.0)`` 6.0, of ``convert_to_tensor([x, 3 * x])`` 4.0, of
``reduce_sum([[x, 1.0], [2.0, x * x]])`` 3.0, of ``reduce_sum([v, x])`` 1.0 for each, and of
``matmul([[x, v]], [[1.0], [2.0]])`` [1.0, 2.0]; a ForwardAccumulator's jvp of
``reduce_sum([x * x, 3.0])`` at x = 2 is 4.0.
"""

import pytest

import companion as tf

CASES = [
    (lambda x, v: tf.reduce_sum([x, 2 * x]), [3.0, None]),
    (lambda x, v: tf.math.reduce_logsumexp([x, 2 * x]), [1.7310586, None]),
    (lambda x, v: tf.multiply([x, x], 3.0), [6.0, None]),
    (lambda x, v: tf.convert_to_tensor([x, 3 * x]), [4.0, None]),
    (lambda x, v: tf.reduce_sum([[x, 1.0], [2.0, x * x]]), [3.0, None]),
    (lambda x, v: tf.reduce_sum([v, x]), [1.0, 1.0]),
    (lambda x, v: tf.matmul([[x, v]], [[1.0], [2.0]]), [1.0, 2.0]),
]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_gradients_flow_through_a_packed_list(index):
    fn, expected = CASES[index]
    x, v = tf.constant(1.0), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x, v)
    got = [None if g is None else float(g) for g in tape.gradient(y, [x, v])]
    assert [g is None for g in got] == [e is None for e in expected]
    assert [g for g in got if g is not None] == pytest.approx([e for e in expected if e is not None])


def test_a_forward_accumulator_sees_a_packed_list():
    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = tf.reduce_sum([x * x, 3.0])
    assert float(acc.jvp(y)) == 4.0


def test_packing_keeps_tf_dtype_rules_under_a_tape():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        packed = tf.convert_to_tensor([1, x])  # TF: float32 [1. 2.]
        assert packed.dtype == tf.float32 and packed.numpy().tolist() == [1.0, 2.0]
        with pytest.raises(tf.errors.InvalidArgumentError):  # TF: a float32 and an int32 tensor
            tf.convert_to_tensor([x, tf.constant(3)])

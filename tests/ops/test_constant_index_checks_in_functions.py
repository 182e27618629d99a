"""Constant out-of-range indices inside a traced function fail when the op runs, as in TF.

Oracle: TF 2.21, observed (the "Introduction to graphs" guide's ``unused_return_graph``): a
``tf.function`` runs only the ops its outputs need, so an unused ``tf.gather(x, [1])`` on one
element returns ``x`` unchanged (``[0.]``); the same gather whose result is returned raises
InvalidArgumentError, as do ``gather_nd``, ``tensor_scatter_nd_update``, ``scatter_nd`` and
``embedding_lookup`` with constant bad indices into a function argument. Eagerly each raises.
"""

import pytest

import companion as tf

BAD = {
    "gather": lambda x: tf.gather(x, [1]),
    "gather_nd": lambda x: tf.gather_nd(x, [[3]]),
    "tensor_scatter_nd_update": lambda x: tf.tensor_scatter_nd_update(x, [[4]], [1.0]),
    "scatter_nd": lambda x: tf.scatter_nd([[9]], x, [3]),
    "embedding_lookup": lambda x: tf.nn.embedding_lookup(x, [7]),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_an_unused_bad_op_is_never_run(name):
    bad = BAD[name]

    @tf.function
    def unused(x):
        bad(x)
        return x * 2

    assert unused(tf.constant([0.5])).numpy().tolist() == [1.0]


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_used_bad_op_raises_when_the_function_runs(name):
    staged = tf.function(BAD[name])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\b(7|9|4|3|1)\b"):
        staged(tf.constant([0.5]))
    with pytest.raises(tf.errors.InvalidArgumentError):  # eagerly, at once
        BAD[name](tf.constant([0.5]))


def test_in_range_constant_indices_are_unchanged_in_a_function():
    @tf.function
    def pick(x):
        return tf.gather(x, [0, 0]), tf.gather_nd(x, [[0]]), tf.nn.embedding_lookup(x, [0])

    got = [t.numpy().tolist() for t in pick(tf.constant([3.0]))]
    assert got == [[3.0, 3.0], [3.0], [3.0]]

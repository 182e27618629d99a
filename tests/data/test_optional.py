"""tf.experimental.Optional and Iterator.get_next_as_optional, checked against TF 2.21's behaviour."""

import pytest

import companion as tf
from companion.data import Dataset


def test_get_next_as_optional_until_the_end():
    # TF 2.21: True/0, True/1, then False; get_value() of the empty one -> InvalidArgumentError
    it = iter(Dataset.range(2))
    first, second, third = (it.get_next_as_optional() for _ in range(3))
    assert bool(first.has_value()) and int(first.get_value()) == 0
    assert bool(second.has_value()) and int(second.get_value()) == 1
    assert not bool(third.has_value())
    assert third.has_value().dtype == tf.bool and third.has_value().shape == ()
    assert repr(third.element_spec) == "TensorSpec(shape=(), dtype=companion.int64, name=None)"
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        third.get_value()
    assert bool(tf.data.experimental.get_next_as_optional(iter(Dataset.range(1))).has_value())


def test_structured_elements():
    it = iter(Dataset.from_tensor_slices(([1, 2], ["a", "b"])))
    value = it.get_next_as_optional().get_value()
    assert int(value[0]) == 1 and value[1].numpy() == b"a"
    assert repr(it.element_spec) == ("(TensorSpec(shape=(), dtype=companion.int32, name=None), "
                                     "TensorSpec(shape=(), dtype=companion.string, name=None))")


def test_from_value_and_empty():
    o = tf.experimental.Optional.from_value(42)
    assert bool(o.has_value()) and int(o.get_value()) == 42 and o.get_value().dtype == tf.int32
    o = tf.experimental.Optional.from_value({"a": tf.constant(1.0), "b": (1, 2)})
    assert float(o.get_value()["a"]) == 1.0 and [int(x) for x in o.get_value()["b"]] == [1, 2]
    assert repr(o.element_spec) == (
        "{'a': TensorSpec(shape=(), dtype=companion.float32, name=None), 'b': (TensorSpec(shape=(), "
        "dtype=companion.int32, name=None), TensorSpec(shape=(), dtype=companion.int32, name=None))}")
    e = tf.experimental.Optional.empty(tf.TensorSpec(shape=[], dtype=tf.int32))
    assert not bool(e.has_value()) and e.element_spec == tf.TensorSpec([], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError):
        e.get_value()
    assert tf.data.experimental.Optional is tf.experimental.Optional


def test_optional_spec_repr():
    # TF 2.21 prints OptionalSpec(TensorSpec(shape=(), dtype=tf.int32, name=None),)
    assert repr(tf.OptionalSpec(tf.TensorSpec([], tf.int32))) == (
        "OptionalSpec(TensorSpec(shape=(), dtype=companion.int32, name=None),)")


def test_in_a_function_with_cond():
    # TF 2.21: 0 for a non-empty dataset, -1 for an empty one
    @tf.function
    def first_or_default(ds):
        opt = iter(ds).get_next_as_optional()
        return tf.cond(opt.has_value(), lambda: opt.get_value(), lambda: tf.constant(-1, tf.int64))

    assert int(first_or_default(Dataset.range(3))) == 0
    assert int(first_or_default(Dataset.range(0))) == -1

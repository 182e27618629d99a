"""tf.VariableAggregation / tf.VariableSynchronization and the Variable properties that hold them.

Expected values are TF 2.21's (printed by /work/tfenv): the public aggregation enum is named
VariableAggregationV2, a Variable made without ``aggregation`` reports the older enum's
VariableAggregation.NONE, and the two compare equal.
"""

import pytest

import companion as tf


def test_enum_members_and_values_are_tfs():
    # TF 2.21: [('NONE', 0), ('SUM', 1), ('MEAN', 2), ('ONLY_FIRST_REPLICA', 3)]
    assert [(m.name, m.value) for m in tf.VariableAggregation] == [
        ("NONE", 0), ("SUM", 1), ("MEAN", 2), ("ONLY_FIRST_REPLICA", 3)]
    # TF 2.21: [('AUTO', 0), ('NONE', 1), ('ON_WRITE', 2), ('ON_READ', 3)]
    assert [(m.name, m.value) for m in tf.VariableSynchronization] == [
        ("AUTO", 0), ("NONE", 1), ("ON_WRITE", 2), ("ON_READ", 3)]
    assert str(tf.VariableAggregation.SUM) == "VariableAggregationV2.SUM"
    assert repr(tf.VariableAggregation.MEAN) == "<VariableAggregationV2.MEAN: 2>"
    assert str(tf.VariableSynchronization.ON_READ) == "VariableSynchronization.ON_READ"


def test_a_plain_variable_reports_none_and_auto():
    v = tf.Variable(1.0)
    assert str(v.aggregation) == "VariableAggregation.NONE"  # TF 2.21: the older enum
    assert v.aggregation == tf.VariableAggregation.NONE
    assert hash(v.aggregation) == hash(tf.VariableAggregation.NONE)
    assert v.synchronization is tf.VariableSynchronization.AUTO
    assert v.constraint is None


def test_variables_keep_what_they_are_given():
    w = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    assert w.aggregation is tf.VariableAggregation.MEAN
    c = tf.Variable(1.0, constraint=abs)
    assert c.constraint is abs


def test_on_read_variables_are_not_trainable_unless_asked():
    # TF 2.21: ON_READ with trainable left out -> False; trainable=True given -> True
    on_read = tf.VariableSynchronization.ON_READ
    assert tf.Variable(1.0, synchronization=on_read).trainable is False
    assert tf.Variable(1.0, synchronization=on_read, trainable=True).trainable is True
    assert tf.Variable(1.0).trainable is True


@pytest.mark.parametrize("kwargs", [{"aggregation": "mean"}, {"synchronization": "x"}])
def test_anything_else_is_a_value_error(kwargs):
    with pytest.raises(ValueError, match="Invalid variable"):  # TF 2.21: ValueError
        tf.Variable(1.0, **kwargs)

"""`VariableAggregation` and `VariableSynchronization`: how a distributed Variable's copies agree.

`VariableAggregation` says how the updates that several replicas make to one Variable inside
`Strategy.run` combine (summed, averaged, or the first replica's); `VariableSynchronization`
says when the copies are made equal (on every write, or only when read, as metric totals).
Outside a strategy both are recorded on the Variable and change nothing.

TF names the public aggregation enum ``VariableAggregationV2`` (that is what its values print
as) while a Variable created without ``aggregation`` reports the older enum's
``VariableAggregation.NONE``; the two compare equal member by member, and companion keeps that.

Example:
    >>> import companion as tf
    >>> v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    >>> v.aggregation
    <VariableAggregationV2.MEAN: 2>
    >>> tf.Variable(1.0).aggregation == tf.VariableAggregation.NONE
    True
"""

import enum


class VariableSynchronization(enum.Enum):
    """When the copies of a distributed Variable are synchronized (TF's enum)."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class _Aggregation(enum.Enum):
    """Members compare equal (and hash alike) across the two aggregation enums, by name."""

    def __eq__(self, other):
        if isinstance(other, _Aggregation):
            return self.value == other.value
        return NotImplemented

    def __hash__(self):
        return hash(self.value)


class VariableAggregation(_Aggregation):
    """How replicas' updates to one Variable combine (TF's ``tf.VariableAggregation``)."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


VariableAggregation.__name__ = VariableAggregation.__qualname__ = "VariableAggregationV2"


class _VariableAggregationV1(_Aggregation):
    """TF's older aggregation enum: what a Variable created without ``aggregation`` reports."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


_VariableAggregationV1.__name__ = _VariableAggregationV1.__qualname__ = "VariableAggregation"


def aggregation_of(value, name=None):
    """``value`` (None, a member of either enum) as the enum a Variable stores; ValueError otherwise."""
    if value is None:
        return _VariableAggregationV1.NONE
    if isinstance(value, _Aggregation):
        return value
    raise ValueError(f"Invalid variable aggregation mode: {value!r} for variable {name!r}. Use a "
                     "member of tf.VariableAggregation (NONE, SUM, MEAN, ONLY_FIRST_REPLICA).")


def synchronization_of(value, name=None):
    """``value`` (None or a `VariableSynchronization`) as stored; ValueError otherwise."""
    if value is None:
        return VariableSynchronization.AUTO
    if isinstance(value, VariableSynchronization):
        return value
    raise ValueError(f"Invalid variable synchronization mode: {value!r} for variable {name!r}. Use "
                     "a member of tf.VariableSynchronization (AUTO, NONE, ON_WRITE, ON_READ).")


__all__ = ["VariableAggregation", "VariableSynchronization", "aggregation_of", "synchronization_of"]

"""`ReduceOp`: how values from several replicas combine (TF's ``tf.distribute.ReduceOp``)."""

import enum

from companion._core._variable_aggregation import VariableAggregation


class ReduceOp(enum.Enum):
    """``SUM`` adds the replicas' values; ``MEAN`` averages them.

    Example:
        >>> import companion as tf
        >>> tf.distribute.ReduceOp.SUM
        <ReduceOp.SUM: 'SUM'>
    """

    SUM = "SUM"
    MEAN = "MEAN"

    @classmethod
    def from_any(cls, value):
        """A ReduceOp from itself or its name (``'sum'``, ``'MEAN'``); a clear error otherwise."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str) and value.upper() in cls.__members__:
            return cls[value.upper()]
        raise ValueError(f"reduce_op must be tf.distribute.ReduceOp.SUM or MEAN. Received: {value!r}")

    @classmethod
    def from_variable_aggregation(cls, aggregation):
        """The ReduceOp of a `tf.VariableAggregation`: SUM and MEAN map to themselves; NONE and
        ONLY_FIRST_REPLICA have none (ValueError), as in TF."""

        if aggregation == VariableAggregation.SUM:
            return cls.SUM
        if aggregation == VariableAggregation.MEAN:
            return cls.MEAN
        raise ValueError(f"Could not convert tf.VariableAggregation {aggregation!r} to a "
                         "tf.distribute.ReduceOp: only SUM and MEAN have one. Received: "
                         f"aggregation={aggregation!r}")

"""`PerReplicaSpec`: the spec of a `PerReplica` value, one `TensorSpec` per replica (TF's class)."""

from companion._core import _nest
from companion._core._tensor_spec import TensorSpec


class PerReplicaSpec:
    """What each replica's share of a distributed value looks like: ``_component_specs`` holds one
    `TensorSpec` per replica (a distributed dataset's ``element_spec`` on several replicas).

    Example:
        >>> import companion as tf
        >>> from companion.distribute._per_replica_spec import PerReplicaSpec
        >>> PerReplicaSpec(tf.TensorSpec([2], tf.int64), tf.TensorSpec([2], tf.int64))
        PerReplicaSpec(TensorSpec(shape=(2,), dtype=companion.int64, name=None), \
TensorSpec(shape=(2,), dtype=companion.int64, name=None))
    """

    def __init__(self, *value_specs):
        self._value_specs = tuple(value_specs)

    @property
    def _component_specs(self):
        return self._value_specs

    def __eq__(self, other):
        return isinstance(other, PerReplicaSpec) and other._value_specs == self._value_specs

    def __hash__(self):
        return hash(self._value_specs)

    def __repr__(self):
        return f"PerReplicaSpec({', '.join(repr(spec) for spec in self._value_specs)})"


def split_spec(element_spec, replicas, global_batch):
    """``element_spec`` (a structure of `TensorSpec`s) as each replica sees it: a `PerReplicaSpec` per
    leaf on several replicas (a global batch's known first dimension divided among them), the spec
    itself on one."""
    if replicas == 1:
        return element_spec

    def split(spec):
        shape = list(spec.shape) if spec.shape.rank is not None else None
        if global_batch and shape:
            shape[0] = shape[0] // replicas if shape[0] is not None and shape[0] % replicas == 0 else None
        return PerReplicaSpec(*[TensorSpec(shape, spec.dtype, spec.name)] * replicas)

    return _nest.map_structure(split, element_spec)

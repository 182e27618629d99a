"""`PerReplicaSpec`: the spec of a `PerReplica` value, one `TensorSpec` per replica (TF's class)."""

import jax
import numpy as np

from companion._core import _nest
from companion._core._dtypes import as_dtype
from companion._core._tensor_spec import TensorSpec
from companion.distribute._values import PerReplica


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

    _is_per_replica_spec = True  # recognised by `companion.function`'s input_signature check

    def __init__(self, *value_specs):
        self._value_specs = tuple(value_specs)

    @property
    def _component_specs(self):
        return self._value_specs

    def is_compatible_with(self, value):
        """True for a `PerReplica` value (or a `PerReplicaSpec`) with one value per replica, each
        compatible with its replica's spec (a function's ``input_signature`` check)."""
        if isinstance(value, PerReplicaSpec):
            values = value._value_specs
        elif isinstance(value, PerReplica):
            values = _replica_specs(value)
        else:
            return False
        return len(values) == len(self._value_specs) and \
            all(spec.is_compatible_with(v) for spec, v in zip(self._value_specs, values))

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


def _replica_specs(value):
    """Each replica's `TensorSpec` in the `PerReplica` ``value``, read from the global array's shape
    (no per-replica slices are made)."""
    array, replicas = value._array, value._replicas
    dtype = as_dtype(array.dtype)
    if value._stacked:
        return [TensorSpec(array.shape[1:], dtype)] * replicas
    size = array.shape[0] // replicas
    if value._mask is None:
        counts = [size] * replicas
    elif isinstance(value._mask, jax.core.Tracer):  # a padded batch inside a trace: sizes not known yet
        counts = [None] * replicas
    else:
        counts = np.asarray(value._mask).reshape(replicas, size).sum(axis=1).astype(int).tolist()
    return [TensorSpec((count,) + tuple(array.shape[1:]), dtype) for count in counts]

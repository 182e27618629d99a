"""`PerReplica`: one value per replica, kept as one array whose leading axis is split across devices."""

import jax

from companion._core._tensor import Tensor


class PerReplica:
    """Values that differ between replicas (TF's ``PerReplica``): ``values`` has one per replica.

    They are stored as one global array sharded along its first axis over the strategy's
    devices: either stacked results (``stacked=True``: axis 0 indexes replicas) or a
    global batch (axis 0 is the examples, split evenly).

    Example:
        >>> import companion as tf
        >>> strategy = tf.distribute.MirroredStrategy()
        >>> per_replica = strategy.run(lambda: tf.constant(2.0))
        >>> float(strategy.reduce("SUM", per_replica, axis=None)) == 2.0 * strategy.num_replicas_in_sync
        True
    """

    _is_per_replica = True  # recognised by Keras layers without importing this package

    def __init__(self, array, replicas, stacked, mask=None):
        self._array = array
        self._replicas = replicas
        self._stacked = stacked
        self._mask = mask  # for a global batch padded to split evenly: 1.0 real, 0.0 padding

    @property
    def values(self):
        """A tuple with each replica's value (as Tensors)."""
        if self._stacked:
            return tuple(Tensor(self._array[i]) for i in range(self._replicas))
        size = self._array.shape[0] // self._replicas
        shards = [self._array[i * size:(i + 1) * size] for i in range(self._replicas)]
        if self._mask is not None:
            counts = [int(self._mask[i * size:(i + 1) * size].sum()) for i in range(self._replicas)]
            shards = [s[:c] for s, c in zip(shards, counts)]
        return tuple(Tensor(s) for s in shards)

    def __repr__(self):
        body = ",\n".join(f"  {i}: {value!r}" for i, value in enumerate(self.values))
        return "PerReplica:{\n" + body + "\n}"

    def __str__(self):  # print(): each value as str() writes it, as TF
        body = ",\n".join(f"  {i}: {value!s}" for i, value in enumerate(self.values))
        return "PerReplica:{\n" + body + "\n}"


class ValueContext:
    """What ``experimental_distribute_values_from_function``'s function is told: which replica
    its value is for (TF's ``tf.distribute.experimental.ValueContext``)."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.ValueContext(replica id {self.replica_id_in_sync_group},  total replicas "
                f"in sync: {self.num_replicas_in_sync})")


def _flatten(value):
    mask = None if value._mask is None else Tensor(value._mask)
    return (Tensor(value._array), mask), (value._replicas, value._stacked)


def _unflatten(aux, children):
    array, mask = children
    return PerReplica(getattr(array, "_value", array), aux[0], aux[1],
                      mask=None if mask is None else getattr(mask, "_value", mask))


# A pytree node, so `companion.function` passes its arrays as traced inputs (not constants).
jax.tree_util.register_pytree_node(PerReplica, _flatten, _unflatten)

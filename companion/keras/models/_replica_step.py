"""A ``fit``/``evaluate``/``predict`` step under a strategy's scope, run through `Strategy.run`.

As Keras's ``Model.fit`` under ``MirroredStrategy`` does: each global batch is split over the
replicas (a final batch that does not divide is padded and masked, as a distributed dataset
does), ``strategy.run(step)`` runs the model's step once per replica on its share, and the
logs are replica 0's (metric updates are summed over the replicas as they happen, so every
replica's results are the global ones). The compiled loss scales each replica's loss for the
global batch and the optimizer sums the gradients with the replica context's ``all_reduce``.

The whole of it is traced by the caller's `companion.function`: the split, the replica
program under ``shard_map`` and the log selection compile into one program per batch shape.
"""

from companion import nest
from companion._core._context import global_metric_reads
from companion._core._tensor import Tensor


def replica_step(strategy, step, predict=False):
    """``step(batch)`` on a global batch, run on every replica of ``strategy`` via `Strategy.run`.

    Returns replica 0's logs, or for ``predict`` the replicas' outputs in batch order (the
    padding of an uneven batch left out).
    """

    def distributed(batch):
        leaves = nest.flatten(batch)
        size = int(leaves[0].shape[0]) if leaves and leaves[0].shape.rank else None
        shares = nest.pack_sequence_as(batch, strategy.split_batch(leaves))
        with global_metric_reads():  # the logs are metric results read in the replicas
            outputs = strategy.run(step, args=(shares,))
        if predict:
            return nest.map_structure(lambda value: _in_batch_order(strategy, value, size), outputs)
        return nest.map_structure(lambda value: strategy.experimental_local_results(value)[0], outputs)

    distributed.__name__ = getattr(step, "__name__", "step")
    return distributed


def _in_batch_order(strategy, value, size):
    gathered = strategy.gather(value, axis=0)
    if size is None or gathered.shape[0] == size:
        return gathered
    return Tensor(gathered._value[:size])

"""`DistributedDataset`: a dataset's global batches split across a strategy's replicas."""

import jax
import jax.numpy as jnp

from companion._core._tensor import Tensor
from companion.data import Dataset


class DistributedDataset:
    """Iterates ``dataset`` (of global batches) as `PerReplica` batches, one share per replica.

    A final batch that does not split evenly is padded with zeros and masked, so
    `companion.nn.compute_average_loss` and metrics updated inside `Strategy.run` ignore the
    padding and match one-device training.
    """

    def __init__(self, strategy, dataset, group=1):
        if not isinstance(dataset, Dataset):
            raise TypeError("experimental_distribute_dataset expects a companion.data.Dataset of "
                            f"batches. Received: {dataset!r}")
        self._strategy, self._dataset, self._group = strategy, dataset, group

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def cardinality(self):
        return self._dataset.cardinality()

    def __iter__(self):
        return DistributedIterator(self)

    def __repr__(self):
        return f"<DistributedDataset over {self._strategy.num_replicas_in_sync} replicas>"


class DistributedIterator:
    """An iterator over a `DistributedDataset`; ``get_next()`` is ``next()``."""

    def __init__(self, distributed):
        self._strategy = distributed._strategy
        self._source = iter(distributed._dataset)
        self._group = distributed._group

    def __iter__(self):
        return self

    def __next__(self):
        parts = [next(self._source)]
        for _ in range(self._group - 1):
            try:
                parts.append(next(self._source))
            except StopIteration:
                break
        element = parts[0] if len(parts) == 1 else _concatenate(parts)
        leaves, treedef = jax.tree_util.tree_flatten(element, is_leaf=_is_tensor)
        split = self._strategy.split_batch([_array(x) for x in leaves])
        return jax.tree_util.tree_unflatten(treedef, split)

    def get_next(self):
        return next(self)


class InputContext:
    """What ``dataset_fn`` learns in `distribute_datasets_from_function` (TF's class)."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size):
        """``global_batch_size / num_replicas_in_sync``; it must divide evenly."""
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The global batch size ({global_batch_size}) must be divisible by the "
                             f"number of replicas ({self.num_replicas_in_sync}).")
        return global_batch_size // self.num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self.input_pipeline_id}, total: "
                f"{self.num_input_pipelines})")


def from_function(strategy, dataset_fn):
    """``dataset_fn(InputContext)`` gives per-replica batches; each step takes one per replica."""
    context = InputContext(1, 0, strategy.num_replicas_in_sync)
    return DistributedDataset(strategy, dataset_fn(context), group=strategy.num_replicas_in_sync)


def _concatenate(parts):
    leaves = [jax.tree_util.tree_flatten(p, is_leaf=_is_tensor) for p in parts]
    treedef = leaves[0][1]
    joined = [Tensor(jnp.concatenate([_array(ls[0][i]) for ls in leaves])) for i in
              range(len(leaves[0][0]))]
    return jax.tree_util.tree_unflatten(treedef, joined)


def _is_tensor(x):
    return hasattr(x, "_value")


def _array(x):
    return x._value if hasattr(x, "_value") else jax.numpy.asarray(x)


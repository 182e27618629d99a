"""`DistributedDataset`: a dataset's global batches split across a strategy's replicas."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._context import state
from companion._core._errors import OutOfRangeError
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion.data import Dataset
from companion.data._optional import Optional
from companion.data._staged_iterator import StagedOptional
from companion.distribute._per_replica_spec import split_spec


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
        if group == 1 and strategy.num_replicas_in_sync > 1:
            for spec in jax.tree_util.tree_leaves(dataset.element_spec):
                if spec.shape.rank == 0:  # (TF fails the same way, with no more words)
                    raise IndexError(
                        "list index out of range: experimental_distribute_dataset splits each element's "
                        f"first dimension among {strategy.num_replicas_in_sync} replicas, but the dataset "
                        f"yields scalars ({spec!r}). Batch the dataset first, e.g. dataset.batch(64).")

    @property
    def element_spec(self):
        """Each replica's share of an element: `PerReplicaSpec`s on several replicas."""
        return _replica_spec(self)

    @property
    def cardinality(self):
        """The number of global batches, a NumPy int64 (a property, as TF's)."""
        return np.int64(self._dataset.cardinality().numpy())

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
        self._spec = _replica_spec(distributed)

    @classmethod
    def _over(cls, source, aux):
        iterator = cls.__new__(cls)
        iterator._source = source
        iterator._strategy, iterator._group, iterator._spec = aux
        return iterator

    @property
    def element_spec(self):
        """Each replica's share of an element: `PerReplicaSpec`s on several replicas."""
        return self._spec

    def __iter__(self):
        return self

    def __next__(self):
        parts = [next(self._source)]
        for _ in range(self._group - 1):
            try:
                parts.append(next(self._source))
            except StopIteration:
                break
        return self._distribute(parts)

    def get_next(self):
        """The next per-replica batch; `OutOfRangeError` (not StopIteration) at the end, as TF."""
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError("End of sequence: the distributed iterator has no more elements.") from None

    def get_next_as_optional(self):
        """The next element (per-replica values) as an `Optional`, empty at the end of the data;
        inside a function its presence is known when the program runs."""
        parts = [self._source.get_next_as_optional() for _ in range(self._group)]
        if state.staging:  # (an empty traced Optional holds zeros of the element's shape)
            return _DistributedOptional(parts[0].has_value(), self._distribute(
                [part.get_value() for part in parts]), self._spec)
        present = [part for part in parts if bool(part.has_value())]
        if not present or present[0] is not parts[0]:
            return _DistributedOptional(Tensor(jnp.asarray(False)), None, self._spec)
        element = self._distribute([part.get_value() for part in present])
        spec = split_spec(_tensor_spec(present[0].get_value()), self._strategy.num_replicas_in_sync,
                          self._group == 1)
        return _DistributedOptional(Tensor(jnp.asarray(True)), element, spec)

    def _distribute(self, parts):
        element = parts[0] if len(parts) == 1 else _concatenate(parts)
        leaves, treedef = jax.tree_util.tree_flatten(element, is_leaf=_is_tensor)
        split = self._strategy.split_batch([_array(x) for x in leaves])
        return jax.tree_util.tree_unflatten(treedef, split)


# A pytree over its data iterator, so a function it is passed to traces per layout of the batches
# (a partial last batch traces again) and pulls them when the program runs, as for a data Iterator.
jax.tree_util.register_pytree_node(
    DistributedIterator, lambda it: ((it._source,), (it._strategy, it._group, it._spec)),
    lambda aux, children: DistributedIterator._over(children[0], aux))


class _DistributedOptional(StagedOptional):
    """A distributed iterator's next element, maybe absent: ``get_value()`` gives per-replica values.
    Its presence is a tensor, traced inside a function (`StagedOptional`) or known eagerly, where an
    empty one holds no element and raises the empty `Optional`'s error."""

    def get_value(self, name=None):
        if self._element is None:
            return Optional.get_value(self, name)
        return self._element

    __repr__ = Optional.__repr__


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


def _replica_spec(distributed):
    return split_spec(distributed._dataset.element_spec, distributed._strategy.num_replicas_in_sync,
                      distributed._group == 1)


def _tensor_spec(element):
    """The spec of ``element``'s tensors, with their known shapes."""
    return jax.tree_util.tree_map(lambda x: TensorSpec(tuple(x.shape), x.dtype), element, is_leaf=_is_tensor)


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


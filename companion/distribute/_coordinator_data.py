"""Per-worker datasets and iterators of a `ClusterCoordinator`.

``create_per_worker_dataset(dataset_fn)`` pickles ``dataset_fn`` (with ``cloudpickle`` when it
is installed: by value, with the globals it uses, whether defined in a notebook, a script or
a module; otherwise with ``pickle``, by reference, so workers must be able to import it) and
each worker calls it to build its own dataset. The coordinator
also calls it once, to learn the elements' structure, shapes and dtypes: a scheduled
function is compiled for those shapes.
"""

from __future__ import annotations

import itertools
import pickle
import sys

import jax
import numpy as np

from companion._core import _nest
from companion._core._context import state
from companion._core._tensor import Tensor
from companion.distribute._scheduled_program import PerWorkerValues

try:
    import cloudpickle
except ImportError:  # pragma: no cover (cloudpickle comes with scikit-learn's joblib)
    cloudpickle = None

_ids = itertools.count()


def dumps(dataset_fn):
    """``dataset_fn`` pickled for the workers (by value with cloudpickle, else by reference)."""
    module = sys.modules.get(getattr(dataset_fn, "__module__", None) or "")
    by_value = (cloudpickle is not None and module is not None and module.__name__ != "__main__"
                and not module.__name__.startswith("companion."))
    try:
        if by_value:  # the workers may not import the module (a test file, a script's helper module)
            cloudpickle.register_pickle_by_value(module)
        return (cloudpickle or pickle).dumps(dataset_fn)
    except Exception as error:  # noqa: BLE001 (pickle raises many kinds)
        raise TypeError(f"create_per_worker_dataset could not send dataset_fn {dataset_fn!r} to the "
                        f"workers: {type(error).__name__}: {error}. Define it as a plain function (at the "
                        "top level of a module or notebook) that builds the dataset from NumPy arrays or "
                        "files.") from error
    finally:
        if by_value:
            cloudpickle.unregister_pickle_by_value(module)


class PerWorkerDataset:
    """The dataset ``dataset_fn()`` built on every worker (TF's ``PerWorkerDatasetFromDataset``)."""

    def __init__(self, coordinator, dataset_fn):
        if not callable(dataset_fn):
            raise TypeError(f"create_per_worker_dataset needs a function that returns a tf.data.Dataset. "
                            f"Received: {dataset_fn!r}")
        self._coordinator = coordinator
        self.id = next(_ids)
        dataset_fn = getattr(dataset_fn, "python_function", dataset_fn)  # a tf.function: its Python code
        local = dataset_fn()
        if not hasattr(local, "element_spec") or not hasattr(local, "__iter__"):
            raise TypeError(f"dataset_fn must return a tf.data.Dataset. It returned {type(local).__name__}.")
        self.element_spec = local.element_spec
        first = next(iter(local), None)
        if first is None:
            raise ValueError("The dataset that dataset_fn returns is empty; a per-worker dataset needs "
                             "elements.")
        leaves, self._treedef = jax.tree_util.tree_flatten(first, is_leaf=_nest.is_value)
        self._leaves = [np.asarray(getattr(x, "_value", x)) for x in leaves]
        coordinator._create_dataset(self.id, dumps(dataset_fn))

    def __iter__(self):
        return PerWorkerIterator(self)


class PerWorkerIterator(PerWorkerValues):
    """``iter(per_worker_dataset)``: one iterator on each worker; pass it to ``schedule``."""

    def __init__(self, dataset):
        self.id = next(_ids)
        self._dataset = dataset
        self.element_spec = dataset.element_spec
        workers = dataset._coordinator._create_iterator(dataset.id, self.id)
        super().__init__(workers)

    def __next__(self):
        raise TypeError("A per-worker iterator gives elements only inside a function run by "
                        "coordinator.schedule(fn, args=(iterator,)); call next(iterator) there.")


class TracedIterator:
    """What the scheduled function sees while it traces: each ``next`` gives one element's stand-ins."""

    def __init__(self, per_worker):
        self._per_worker = per_worker
        self._calls = itertools.count()

    @property
    def element_spec(self):
        return self._per_worker.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        dataset = self._per_worker._dataset
        owner = _FeedCall(self._per_worker.id, next(self._calls))
        trace = state.traces[-1]
        leaves = [Tensor(trace.feed(owner, i, np.zeros_like(x))) for i, x in enumerate(dataset._leaves)]
        return jax.tree_util.tree_unflatten(dataset._treedef, leaves)

    def get_next(self):
        return next(self)


class _FeedCall:
    """One ``next(iterator)`` call of a traced scheduled function."""

    def __init__(self, iterator_id, call):
        self.iterator_id = iterator_id
        self.call = call

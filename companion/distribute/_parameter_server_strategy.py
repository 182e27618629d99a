"""``ParameterServerStrategy``: Variables on ps tasks, functions run by workers asynchronously.

The process that makes the strategy is the cluster's chief (the coordinator). Variables
created in `ParameterServerStrategy.scope` are stored by the ps tasks (round-robin); the
coordinator keeps a `ParameterServerVariable` handle whose eager reads and writes go to its
ps task. Functions run on workers through `ClusterCoordinator.schedule`
(`companion.distribute._coordinator`).
"""

from __future__ import annotations

import contextlib
import itertools
import secrets

import jax
import numpy as np

from companion._core._context import state
from companion._core._dtypes import as_dtype
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._core._variable import _ADD, Variable, _assigned
from companion.distribute import _extended, _ps_service
from companion.distribute._context import ReplicaContext
from companion.distribute._distributed_dataset import InputContext
from companion.distribute._ps_service import _split
from companion.distribute._reduce_op import ReduceOp
from companion.distribute._strategy import Strategy, _reduce_plain


class ParameterServerStrategy(Strategy):
    """Asynchronous data parallelism with parameter servers (TF's
    ``tf.distribute.experimental.ParameterServerStrategy``).

    Args:
        cluster_resolver: a cluster resolver (`TFConfigClusterResolver`, or the
            ``cluster_resolver`` of `create_local_cluster`) whose cluster has ``ps`` and
            ``worker`` tasks; this process is the chief (the coordinator).
        variable_partitioner: a partitioner (`FixedShardsPartitioner`,
            `MinSizePartitioner`, `MaxSizePartitioner`): a Variable it splits in more than one
            shard is stored as that many row blocks, on successive ps tasks.

    Example:
        >>> import companion as tf
        >>> tf.distribute.experimental.ParameterServerStrategy(
        ...     tf.distribute.cluster_resolver.TFConfigClusterResolver(tf_config={
        ...         "cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker", "index": 0}}))
        Traceback (most recent call last):
        ...
        ValueError: ParameterServerStrategy needs a cluster with at least one 'ps' task ...
    """

    _extended_class = _extended.ParameterServerStrategyV2Extended

    def __init__(self, cluster_resolver, variable_partitioner=None):
        if cluster_resolver is None or not hasattr(cluster_resolver, "cluster_spec"):
            raise ValueError("ParameterServerStrategy needs a cluster resolver naming the 'ps' and 'worker' "
                             "tasks, e.g. tf.distribute.cluster_resolver.TFConfigClusterResolver() or "
                             "tf.distribute.experimental.create_local_cluster().cluster_resolver. Received: "
                             f"{cluster_resolver!r}")
        cluster = cluster_resolver.cluster_spec().as_dict()
        for job in ("ps", "worker"):
            if not cluster.get(job):
                raise ValueError(f"ParameterServerStrategy needs a cluster with at least one {job!r} task "
                                 f"(TF_CONFIG['cluster'][{job!r}]). Received the cluster {cluster}. Start "
                                 "one with tf.distribute.experimental.create_local_cluster(num_workers=2, "
                                 "num_ps=1), or `companion-launch --ps 1 --workers 2 script.py`.")
        if variable_partitioner is not None and not callable(variable_partitioner):
            raise TypeError("variable_partitioner must be a partitioner such as "
                            "tf.distribute.experimental.partitioners.MinSizePartitioner(), or None. "
                            f"Received: {variable_partitioner!r}")
        super().__init__(jax.devices()[:1])
        self.cluster_resolver = cluster_resolver
        self._variable_partitioner = variable_partitioner
        self._cluster = cluster
        self._key = _ps_service.authkey(cluster, getattr(cluster_resolver, "_companion_secret", None))
        self._sockets = getattr(cluster_resolver, "_companion_sockets", None)
        self._stores = [_ps_service.connect(address, self._key, f"ps task {i}", sockets=self._sockets).store()
                        for i, address in enumerate(cluster["ps"])]
        self._next_ps = itertools.count()
        self._keys = itertools.count()
        self._prefix = secrets.token_hex(4)  # keys of this strategy's Variables on shared ps tasks
        self._coordinator = None

    # -- description ------------------------------------------------------------------------
    @property
    def num_replicas_in_sync(self):
        return 1

    @property
    def _num_ps(self):
        return len(self._cluster["ps"])

    @property
    def _num_workers(self):
        return len(self._cluster["worker"])

    def __repr__(self):
        return (f"<companion.distribute.experimental.ParameterServerStrategy ps={self._num_ps} "
                f"workers={self._num_workers}>")

    # -- Variables ------------------------------------------------------------------------
    def place_variable(self, variable, traced=False):
        """Stores a new Variable on the next ps task (round-robin), or in row blocks on several.

        Random-number state (the streams of ``tf.random`` ops, a ``Generator``'s key) stays on
        the chief: each scheduled function gets a fresh key split from it (`ScheduledProgram`).
        """
        if variable._is_rng_state:
            return
        value = np.asarray(variable._v)
        shards = self._shards_for(variable, value)
        blocks = np.array_split(value, shards, axis=0) if shards > 1 else [value]
        placement = []
        for block in blocks:
            task = next(self._next_ps) % self._num_ps
            key = f"{self._prefix}/{next(self._keys)}:{variable.name}"
            self._call_store(task, "create", key, block)
            placement.append((task, key, block.shape[0] if block.ndim else None))
        variable.__class__ = ParameterServerVariable
        variable._strategy = self
        variable._placement = placement

    def _shards_for(self, variable, value):
        partitioner = self._variable_partitioner
        if partitioner is None or value.ndim == 0:
            return 1

        parts = partitioner(TensorShape(value.shape), as_dtype(value.dtype))
        parts = list(parts)
        if any(p != 1 for p in parts[1:]):
            raise ValueError(f"companion's ParameterServerStrategy shards Variables along axis 0 only; the "
                             f"partitioner asked for {parts} parts of Variable {variable.name!r}.")
        return max(1, min(int(parts[0]), value.shape[0]))

    def _read(self, variable):
        """The current value of a ps Variable (its blocks joined)."""
        blocks = [self._read_block(task, key) for task, key, _ in variable._placement]
        return blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=0)

    def _read_block(self, task, key):
        values, _ = self._call_store(task, "read", [key])
        return values[0]

    def _call_store(self, task, method, *args):
        try:
            return getattr(self._stores[task], method)(*args)
        except (EOFError, OSError) as error:
            raise _ps_service.ps_unavailable(task, self._cluster["ps"][task], error) from None

    def _write(self, variable, value, delta=False):
        value = np.asarray(value, dtype=np.asarray(variable._v).dtype)
        blocks = _split(value, variable._placement)
        for (task, key, _), block in zip(variable._placement, blocks):
            if delta:
                self._call_store(task, "apply", {key: block}, {}, {})
            else:
                self._call_store(task, "apply", {}, {key: block}, {})

    # -- running inside a scheduled function ------------------------------------------------
    def run(self, fn, args=(), kwargs=None):
        """Calls ``fn(*args, **kwargs)`` as the worker's one replica (inside a scheduled function)."""
        with self.scope(), ReplicaContext(self):
            return fn(*args, **(kwargs or {}))

    def reduce(self, reduce_op, value, axis=None):
        ReduceOp.from_any(reduce_op)
        if axis is None:
            return value
        return _reduce_plain(ReduceOp.from_any(reduce_op), value, axis, 1)

    def experimental_distribute_dataset(self, dataset, options=None):
        """``dataset`` itself: a worker has one replica, which takes whole elements (as in TF, for
        use in the ``dataset_fn`` of ``coordinator.create_per_worker_dataset``)."""
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """``dataset_fn(InputContext(1, 0, 1))``: each worker is one input pipeline of one replica,
        as in TF (call it in the ``dataset_fn`` of ``coordinator.create_per_worker_dataset``)."""
        return _worker_datasets_from_function(dataset_fn)

    def __reduce__(self):
        # a dataset_fn shipped to the workers may refer to the strategy (TF's tutorial does): the
        # workers get a stand-in that only builds datasets
        return (_WorkerSideStrategy, ())

    @contextlib.contextmanager
    def scope(self):
        with super().scope():
            yield self




def _worker_datasets_from_function(dataset_fn):
    return dataset_fn(InputContext(num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1))


class _WorkerSideStrategy:
    """What a worker sees of the strategy inside a shipped ``dataset_fn``: dataset building only."""

    num_replicas_in_sync = 1

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return _worker_datasets_from_function(dataset_fn)

    def scope(self):
        return contextlib.nullcontext(self)


class ParameterServerVariable(Variable):
    """A Variable stored by ps tasks; the coordinator's handle reads and writes it there.

    While a function traces (on the coordinator) it behaves as a local Variable holding a
    copy of the value; the traced program then runs on a worker against the ps values.
    """

    _traced_by_spec = False

    def _fetch(self):
        value = jax.numpy.asarray(self._strategy._read(self))
        self._v = value
        self._read_cache = None
        return value

    @property
    def _value(self):
        if state.staging:
            return Variable._value.fget(self)
        return self._fetch()

    def _read(self):
        if state.staging:
            return Variable._read(self)

        return Tensor(self._fetch())

    def _set_value(self, new_value):
        if state.staging:
            return Variable._set_value(self, new_value)
        self._strategy._write(self, np.asarray(new_value))
        self._v = new_value
        self._read_cache = None

    def _update(self, fn, delta, what, read_value, name=None):
        if state.staging:
            return Variable._update(self, fn, delta, what, read_value, name)

        delta = np.asarray(_assigned(delta, self.dtype)._value)
        delta = np.broadcast_to(delta, self.shape.as_list()) if self.shape.is_fully_defined() else delta
        self._strategy._write(self, delta if fn is _ADD else -delta, delta=True)
        self._read_cache = None
        return self if read_value else None

    @property
    def device(self):
        task = self._placement[0][0]
        return f"/job:ps/replica:0/task:{task}/device:CPU:0"

    @property
    def variables(self):
        """The Variable's shards (TF's ``ShardedVariable.variables``): one per row block, in order,
        each with its ``device``, ``shape`` and current value (``numpy()``); one when not sharded."""
        return [_Shard(self, index) for index in range(len(self._placement))]


class _Shard:
    """One row block of a sharded `ParameterServerVariable`, as stored by its ps task."""

    def __init__(self, variable, index):
        self._variable = variable
        self._index = index
        task, self._key, rows = variable._placement[index]
        self._task = task
        full = variable.shape.as_list()
        self.shape = TensorShape([rows] + full[1:] if rows is not None else full)
        self.dtype = variable.dtype
        base = variable.name.rsplit(":", 1)[0]
        self.name = f"{base}/part_{index}:0" if len(variable._placement) > 1 else variable.name
        self.device = f"/job:ps/replica:0/task:{task}/device:CPU:0"

    def numpy(self):
        return self._variable._strategy._read_block(self._task, self._key)

    def __repr__(self):
        return f"<companion ps shard {self.name!r} shape={self.shape} on {self.device}>"

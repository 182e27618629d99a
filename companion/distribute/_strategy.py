"""`Strategy`: the common API of every distribution strategy, on a one-axis device mesh."""

import contextlib
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from companion._core import _nest
from companion._core._context import state as context_state
from companion._core._convert import as_input
from companion._core._tensor import Tensor
from companion._core._variable_aggregation import VariableSynchronization
from companion._logger import get_logger
from companion._ops._array import concat
from companion.distribute import _context
from companion.distribute._distributed_dataset import DistributedDataset, from_function
from companion.distribute._extended import StrategyExtended
from companion.distribute._mirrored_variable import mirrored_class
from companion.distribute._reduce_op import ReduceOp
from companion.distribute._run import AXIS, CompiledPrograms, ReplicaProgram, signature
from companion.distribute._values import PerReplica, ValueContext


class Strategy:
    """Data parallelism over ``devices``, TensorFlow's ``tf.distribute.Strategy``.

    Variables created in `scope` are mirrored (one copy per device, kept equal); `run`
    calls a function once per replica on its share of the data; `reduce` and `gather`
    combine per-replica values with XLA collectives.
    """

    def __init__(self, devices):
        self._devices = list(devices)
        self._mesh = Mesh(np.array(self._devices), (AXIS,))
        self._replicated = NamedSharding(self._mesh, P())
        self._split = NamedSharding(self._mesh, P(AXIS))
        self._programs = {}  # signature -> ReplicaProgram, for strategies that trace a `run` once
        self._compiled = CompiledPrograms()  # for those that trace it on every eager call

    # -- description -------------------------------------------------------------------------
    @property
    def num_replicas_in_sync(self):
        return len(self._devices)

    _extended_class = StrategyExtended

    @functools.cached_property
    def extended(self):
        """The lower-level API (`StrategyExtended`), as TF names it for this strategy."""
        return self._extended_class(self)

    @property
    def worker_devices(self):
        return tuple(_device_name(d) for d in self._devices)

    def __repr__(self):
        return f"<companion.distribute.{type(self).__name__} replicas={self.num_replicas_in_sync}>"

    # -- scope ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def scope(self):
        """Within it, new Variables (models, optimizers, metrics) are mirrored on the devices."""
        current = _context.current_strategy()
        if current is not None and current is not self:
            # TF's RuntimeError and words: the strategy in scope first
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: {current!r} is not "
                               f"{self!r}")
        _context.push_strategy(self)
        try:
            yield self
        finally:
            _context.pop_strategy()

    def place_variable(self, variable, traced=False):
        """Makes a new Variable mirrored: its value replicated on every device of the mesh.

        ``traced``: it was created while a function traced (its value is then a constant).
        """
        value = variable._v
        if jax.process_count() > 1 and not traced:
            # every worker starts from worker 0's initial value (Variables created while a
            # function traces, such as optimizer slots, start from constants anyway)

            value = multihost_utils.broadcast_one_to_all(value)
        variable._v = self._replicated_array(value)
        variable.__class__ = mirrored_class(type(variable))
        variable._strategy = self
        if variable._synchronization is VariableSynchronization.AUTO:  # TF: a mirrored one syncs on write
            variable._synchronization = VariableSynchronization.ON_WRITE

    def variable_created_in_scope(self, variable):
        """Whether ``variable`` was created in this strategy's `scope` (TF's ``extended`` method)."""
        return getattr(variable, "_strategy", None) is self

    def _replicated_array(self, value):
        if jax.process_count() == 1 or not getattr(value, "is_fully_addressable", True):
            return jax.device_put(value, self._replicated)  # (a global array: resharded by XLA)
        local = np.asarray(value)  # every process holds the same value: build without a check
        return jax.make_array_from_callback(local.shape, self._replicated, lambda index: local[index])

    # -- running -----------------------------------------------------------------------------
    def run(self, fn, args=(), kwargs=None):
        """Calls ``fn(*args, **kwargs)`` once per replica; returns per-replica results.

        `PerReplica` arguments (from a distributed dataset) give each replica its share;
        other tensors are the same on every replica. With one replica the results are
        plain tensors, otherwise `PerReplica` values.
        """
        kwargs = kwargs or {}
        if self._runs_as_written(args, kwargs):
            _eager_overhead_warning(self)
            args, kwargs = _nest.map_structure(_only_value, (args, kwargs))
            with self.scope(), self._replica_context_class(self):
                return fn(*args, **kwargs)
        # the replica function is traced again inside a function's trace, as TF does (its Python
        # runs once per trace of the function, not once per signature ever seen), and on every
        # eager call of a mirrored strategy, whose replicas TF runs op by op: the Python runs each
        # time (prints, a closure's new values), and the compiled program is reused while what
        # it traced stays the same
        staging = context_state.staging
        retrace = staging or self._eager_run_as_written
        key = None if retrace else signature(fn, args, kwargs)
        program = None if retrace else self._programs.get(key)
        with self.scope():
            if program is None:
                if retrace and not staging:
                    _eager_overhead_warning(self)
                program = ReplicaProgram(self, fn, args, kwargs, None if staging else self._compiled)
                if not retrace:
                    self._programs[key] = program
            return program(args, kwargs)

    _replica_context_class = _context.ReplicaContext  # what `get_replica_context()` is inside `run`

    # TF's mirrored strategies run an eager `run`'s Python on every call: on one replica as written
    # (op by op), on several traced again; TPUStrategy compiles it once per signature
    _eager_run_as_written = False

    def _runs_as_written(self, args, kwargs):
        """Whether this `run` calls ``fn`` as written: an eager call of a mirrored strategy with one
        replica, which TF makes op by op on every call (its Python, prints included, each time)."""
        if not self._eager_run_as_written or context_state.staging or self.num_replicas_in_sync != 1:
            return False
        return not any(isinstance(x, PerReplica) and x._mask is not None
                       for x in _nest.flatten((args, kwargs)))

    def reduce(self, reduce_op, value, axis=None):
        """Combines per-replica ``value``: SUM or MEAN over replicas (and over ``axis`` of each)."""
        reduce_op = ReduceOp.from_any(reduce_op)
        if not isinstance(value, PerReplica):
            return _reduce_plain(reduce_op, value, axis, self.num_replicas_in_sync)
        stacked = _stacked(value)
        axes = (0,) if axis is None else (0, _axis(axis, stacked.ndim - 1) + 1)
        if reduce_op is ReduceOp.SUM:
            return Tensor(jnp.sum(stacked, axis=axes, dtype=stacked.dtype))
        return Tensor(_masked_mean(value, stacked, axes))

    def gather(self, value, axis):
        """The replicas' values concatenated along ``axis`` (as ``tf.concat``: scalars or other shapes
        raise its InvalidArgumentError); one replica's value as it is, as TF's."""
        if not isinstance(value, PerReplica):
            return value
        if len(value.values) == 1:
            return value.values[0]
        return concat(list(value.values), axis)

    def experimental_local_results(self, value):
        """The values on this process's replicas, as a tuple."""
        if isinstance(value, PerReplica):
            return value.values
        return (value,)

    _per_replica_values = True  # (one-device strategies hand out the value itself)

    def experimental_distribute_values_from_function(self, value_fn):
        """``value_fn(ValueContext)`` called once per replica: its results as `PerReplica` values
        (one per leaf of the structure it returns), ready to pass to `run`."""
        replicas = self.num_replicas_in_sync
        results = [value_fn(ValueContext(i, replicas)) for i in range(replicas)]
        if not self._per_replica_values:
            return results[0]
        flat = [_nest.tree_flatten(result) for result in results]
        for _, treedef in flat[1:]:
            if treedef != flat[0][1]:
                raise ValueError("experimental_distribute_values_from_function: every replica's value must "
                                 f"have the same structure. Replica 0 gave {flat[0][1]}, another gave "
                                 f"{treedef}.")
        stacked = [self._stacked_values([as_input(leaves[i])._value for leaves, _ in flat])
                   for i in range(len(flat[0][0]))]
        return _nest.tree_unflatten(flat[0][1], stacked)

    def _stacked_values(self, arrays):
        shapes = {(a.shape, a.dtype) for a in arrays}
        if len(shapes) > 1:
            found = [(a.shape, str(a.dtype)) for a in arrays]
            raise ValueError("experimental_distribute_values_from_function: companion keeps a per-replica "
                             "value as one array, so every replica's value must have the same shape and "
                             f"dtype. Received (shape, dtype) per replica: {found}. Pad the values to one "
                             "shape.")
        return PerReplica(jax.device_put(jnp.stack(arrays), self._split), len(arrays), stacked=True)

    def experimental_distribute_dataset(self, dataset, options=None):
        """A `DistributedDataset`: each global batch of ``dataset`` split across the replicas."""
        return DistributedDataset(self, dataset)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """A `DistributedDataset` from ``dataset_fn(InputContext)`` (per-replica batches)."""
        return from_function(self, dataset_fn)

    def replicate(self, array):
        """``array`` copied to every device of the strategy."""
        return Tensor(jax.device_put(getattr(array, "_value", array), self._replicated))

    def split_batch(self, arrays):
        """A global batch as `PerReplica`, padded (and masked) to split evenly if needed; with one
        replica, plain tensors on its device (TF hands out the batch itself). Works eagerly (a
        distributed dataset) and inside a traced function (``fit``'s step under a scope)."""
        replicas = self.num_replicas_in_sync
        arrays = [getattr(array, "_value", array) for array in arrays]  # (tensors: their arrays)
        if replicas == 1:
            return [Tensor(jax.device_put(array, self._replicated)) for array in arrays]
        size = int(arrays[0].shape[0]) if arrays else 0
        padded = -(-size // replicas) * replicas
        mask = None
        if padded != size:
            mask = _placed(jnp.arange(padded) < size, self._split).astype(jnp.float32)
        out = []
        for array in arrays:
            if padded != size:
                array = jnp.concatenate([array, jnp.zeros((padded - size,) + array.shape[1:],
                                                          array.dtype)])
            out.append(PerReplica(_placed(array, self._split), replicas, stacked=False, mask=mask))
        return out


def _placed(array, sharding):
    """``array`` laid out by ``sharding``; inside a trace a constraint on the traced value (a batch
    pulled from an iterator while the program runs lands on one device otherwise)."""
    if isinstance(array, jax.core.Tracer):
        return jax.lax.with_sharding_constraint(array, sharding)
    return jax.device_put(array, sharding)


def _stacked(value):
    array = value._array
    if value._stacked:
        return array
    replicas = value._replicas
    return array.reshape((replicas, array.shape[0] // replicas) + array.shape[1:])


def _masked_mean(value, stacked, axes):
    if value._stacked or value._mask is None or axes == (0,):
        return jnp.mean(stacked, axis=axes)
    mask = value._mask.reshape(stacked.shape[:2] + (1,) * (stacked.ndim - 2))
    return jnp.sum(stacked * mask, axis=axes) / jnp.sum(mask * jnp.ones_like(stacked), axis=axes)


def _reduce_plain(reduce_op, value, axis, replicas):
    value = as_input(value)
    array = value._value if axis is None else jnp.sum(value._value, axis=axis) \
        if reduce_op is ReduceOp.SUM else jnp.mean(value._value, axis=axis)
    if reduce_op is ReduceOp.SUM and replicas > 1:
        raise ValueError("Strategy.reduce(SUM, value): value is not per-replica (it is the same on "
                         f"every replica), so its sum over {replicas} replicas is ambiguous. Pass the "
                         "PerReplica result of strategy.run, or use ReduceOp.MEAN.")
    return Tensor(array)


def _axis(axis, rank):
    if not -rank <= axis < rank:
        raise ValueError(f"Strategy.reduce: axis {axis} is out of range for per-replica values of "
                         f"rank {rank}.")
    return axis % rank


def _device_name(device):
    kind = "GPU" if device.platform == "gpu" else device.platform.upper()
    return f"/job:localhost/replica:0/task:{device.process_index}/device:{kind}:{device.id}"


_eager_warnings_left = 5  # TF logs its eager-overhead warning for the first five eager calls of a process


def _eager_overhead_warning(strategy):
    global _eager_warnings_left
    if _eager_warnings_left > 0:
        _eager_warnings_left -= 1
        get_logger().warning(
            "Using %s eagerly has significant overhead currently. We will be working on improving this "
            "in the future, but for now please wrap `call_for_each_replica` or `experimental_run` or `run` "
            "inside a tf.function to get the best performance.", type(strategy).__name__)


def _only_value(x):
    """A one-replica `PerReplica` as its one value; anything else as it is."""
    return x.values[0] if isinstance(x, PerReplica) else x

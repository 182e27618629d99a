"""A scheduled function staged on the coordinator and shipped to workers as a compiled program.

`ScheduledProgram` stages a ``companion.function`` once per call signature (like
``Strategy.run``: `companion._staging.stage`), then serializes it with ``jax.export``. The
program takes ``(tensor arguments, Variable values, dataset elements)`` and returns the
function's outputs followed by the new values of the Variables it wrote. A worker runs it on
values it reads from the ps tasks and on elements of its own dataset, so no Python closure
is pickled.

``next(iterator)`` on a per-worker iterator, while the function traces, returns traced
stand-ins for one dataset element (`companion._staging.Trace.feed`); the worker fills them in.
"""

from __future__ import annotations

import itertools

import jax
import numpy as np
from jax import export

from companion._core import _nest
from companion._core._tensor import Tensor
from companion._ops._random import _LOCK, split_key
from companion._staging import Trace, leaf_key, stage
from companion.distribute._parameter_server_strategy import ParameterServerVariable
from companion.distribute._values import PerReplica

_ids = itertools.count()


class PerWorkerValues:
    """One value per worker (TF's ``tf.distribute.experimental.coordinator.PerWorkerValues``).

    A per-worker value lives on the workers; pass it to `ClusterCoordinator.schedule` and each
    worker uses its own.
    """

    def __init__(self, values):
        self._values = tuple(values)


def flatten(structure):
    """Leaves of ``(args, kwargs)``; per-worker values and Variables are leaves."""
    return jax.tree_util.tree_flatten(structure, is_leaf=lambda x: _nest.is_value(x)
                                      or isinstance(x, (PerWorkerValues, PerReplica)))


def call_signature(fn, args, kwargs):
    """The program cache key: the function, the structure, shapes/dtypes and Python values."""
    # deferred: companion.distribute._coordinator_data imports this module at its top
    from companion.distribute._coordinator_data import PerWorkerIterator

    leaves, treedef = flatten((args, kwargs))
    parts = []
    for x in leaves:
        if isinstance(x, PerWorkerIterator):
            parts.append(("iterator", id(x)))
        else:
            parts.append(leaf_key(x))
    return fn, treedef, tuple(parts)


class ScheduledProgram:
    """One staged and exported signature of a scheduled function."""

    def __init__(self, strategy, fn, args, kwargs):
        # deferred: companion.distribute._coordinator_data imports this module at its top
        from companion.distribute._coordinator_data import PerWorkerIterator

        self.id = next(_ids)
        self._strategy = strategy
        leaves, self._treedef = flatten((args, kwargs))
        self._kinds = []
        for x in leaves:
            if isinstance(x, PerWorkerIterator):
                self._kinds.append("iterator")
            elif isinstance(x, PerWorkerValues):
                raise TypeError("coordinator.schedule: a per-worker value other than an iterator was "
                                f"passed ({type(x).__name__}). Pass "
                                "iter(coordinator.create_per_worker_dataset(fn)).")
            elif _is_tensor(x):
                self._kinds.append("tensor")
            else:
                _check_python(x)
                self._kinds.append(None)
        self._leaves = leaves
        avals = [_aval(x) for x, k in zip(leaves, self._kinds) if k == "tensor"]
        self._feeds = []
        trace = Trace(allow_create=True, owner=fn)
        callable_ = fn._callable() if hasattr(fn, "_callable") else fn
        self._fn = callable_
        self.staged = stage(self._call, avals, trace)
        self._check_variables()
        # a Variable's ps placement; a random-number state (kept on the chief) is None: its key
        # travels with each request, and the new state the worker computes is not sent back
        self.reads = [None if var._is_rng_state else var._placement for var in self.staged.variables]
        self.writes = [None if var._is_rng_state else var._placement for var in self.staged.written]
        self._keys = [var for var in self.staged.variables if var._is_rng_state]
        self.feeds = [(owner.iterator_id, owner.call, index) for _, (owner, index) in self.staged.feed_slots]
        consts = self.staged.closed.consts
        self.feed_shapes = [tuple(consts[slot].shape) for slot, _ in self.staged.feed_slots]
        self.n_out = self.staged.n_out
        self.blob = self._export(avals)

    def _call(self, *arrays):
        # deferred: companion.distribute._coordinator_data imports this module at its top
        from companion.distribute._coordinator_data import PerWorkerIterator, TracedIterator

        it = iter(arrays)
        filled = []
        for x, kind in zip(self._leaves, self._kinds):
            if kind == "tensor":
                filled.append(Tensor(next(it)))
            elif kind == "iterator":
                assert isinstance(x, PerWorkerIterator)
                filled.append(TracedIterator(x))
            else:
                filled.append(x)
        args, kwargs = jax.tree_util.tree_unflatten(self._treedef, filled)
        result = self._fn(*args, **kwargs)
        outs, self._out_tree = jax.tree_util.tree_flatten(result, is_leaf=_nest.is_value)
        self._out_none = [o is None for o in outs]
        return [_array_of(o) for o in outs if o is not None]

    def _check_variables(self):
        for var in list(self.staged.variables) + list(self.staged.written):
            if var._is_rng_state:
                continue
            if not isinstance(var, ParameterServerVariable) or var._strategy is not self._strategy:
                raise ValueError(
                    f"The scheduled function uses Variable {var.name!r}, which was not created under this "
                    "ParameterServerStrategy's scope, so it does not live on the parameter servers and "
                    "workers cannot read or update it. Create it (and the model and optimizer) inside "
                    "`with strategy.scope():`.")

    def _export(self, avals):
        staged = self.staged
        n_args = len(avals)
        n_vars = len(staged.variables)
        var_avals = [jax.ShapeDtypeStruct(np.shape(v._v), np.asarray(v._v).dtype) for v in staged.variables]
        feed_avals = [jax.ShapeDtypeStruct(c.shape, c.dtype) for c in
                      (staged.closed.consts[slot] for slot, _ in staged.feed_slots)]

        def program(*arrays):
            return tuple(staged.evaluate(arrays[:n_args], arrays[n_args:n_args + n_vars],
                                         arrays[n_args + n_vars:]))

        try:
            exporter = export.export(jax.jit(program), platforms=_platforms())
            exported = exporter(*avals, *var_avals, *feed_avals)
            return exported.serialize()
        except Exception as error:  # noqa: BLE001 (JAX raises several kinds; explain and chain)
            raise ValueError(
                "coordinator.schedule could not compile the function into a program workers can run "
                f"({type(error).__name__}: {error}). Scheduled functions are shipped as compiled programs "
                "(jax.export): host callbacks such as tf.print or tf.py_function cannot be shipped."
            ) from error

    def request(self, args, kwargs):
        """What a worker needs to run this program on ``(args, kwargs)`` (same signature)."""
        leaves, _ = flatten((args, kwargs))
        arrays = [np.asarray(_value_of(x)) for x, k in zip(leaves, self._kinds) if k == "tensor"]
        reads = list(self.reads)
        keys = iter(self._fresh_keys())
        for position, placement in enumerate(reads):
            if placement is None:
                reads[position] = {"value": next(keys)}
        return {"program": self.id, "args": arrays, "reads": reads, "writes": self.writes,
                "feeds": self.feeds, "feed_shapes": self.feed_shapes, "n_out": self.n_out}

    def _fresh_keys(self):
        """One key per random-number state the function uses, split from the chief's state (which
        advances), so every scheduled call draws different numbers, reproducibly after set_seed."""
        keys = []
        with _LOCK:
            for var in self._keys:
                if tuple(var.shape) == (3,):  # a Generator's Philox state: the call gets the state as it
                    state = np.asarray(var._value)  # is, the chief's counter jumps past its draws
                    var._set_value(jax.numpy.asarray(_skipped(state)))
                    keys.append(state)
                    continue
                new_state, key = split_key(var._value)
                var._set_value(new_state)
                keys.append(np.asarray(key))
        return keys

    def unpack(self, outputs, as_tensors):
        # NumPy values as Tensor.numpy() gives them: a scalar is a NumPy scalar (np.float32(1.0))
        results = iter([Tensor(jax.numpy.asarray(o)) if as_tensors else o[()] if o.ndim == 0 else o
                        for o in outputs])
        leaves = [None if none else next(results) for none in self._out_none]
        return jax.tree_util.tree_unflatten(self._out_tree, leaves)


def _platforms():
    """Where workers may run the program: on CPUs (the default of local clusters and
    companion-launch), and on this process's accelerator kind if it has one."""
    local = jax.default_backend()
    return ("cpu",) if local == "cpu" else ("cpu", {"gpu": "cuda"}.get(local, local))


def _is_tensor(x):
    tensor_types = (Tensor, np.ndarray, jax.Array, np.generic)
    return isinstance(x, tensor_types) and not getattr(x, "_is_variable", False)


def _check_python(x):
    # deferred: companion.distribute._coordinator imports this module at its top
    from companion.distribute._coordinator import RemoteValue

    if isinstance(x, RemoteValue):
        raise ValueError("coordinator.schedule does not take a RemoteValue as an argument (as in TF): "
                         "fetch it first (remote_value.fetch()) and pass the value.")
    if getattr(x, "_is_variable", False):
        return  # a Variable argument: read inside the trace like a captured one


def _aval(x):
    value = _value_of(x)
    return jax.ShapeDtypeStruct(np.shape(value), np.asarray(value).dtype if not hasattr(value, "dtype")
                                else value.dtype)


def _value_of(x):
    return x._value if isinstance(x, Tensor) else x


def _array_of(value):
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        return value._value
    return jax.numpy.asarray(value)


def _skipped(state, blocks=1 << 40):
    """A Philox state ``int64[3]`` with its 128-bit counter moved on by ``blocks``."""
    words = state.astype(np.uint64)
    low = words[0] + np.uint64(blocks)
    high = words[1] + np.uint64(low < words[0])
    return np.asarray([low, high, words[2]], np.uint64).astype(np.int64)

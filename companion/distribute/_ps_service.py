"""What the tasks of a parameter-server cluster serve, over ``multiprocessing.managers``.

A ``ps`` task serves a `VariableStore`: Variables as NumPy arrays, each with a version that
counts the updates applied to it. `VariableStore.apply` adds deltas under one lock, so a
worker's update (the new values minus the values it read) is applied atomically, whatever
other workers did meanwhile; it returns the update's *staleness*, how many updates other
workers applied between the read and this update.

A ``worker`` task serves a `WorkerRuntime`: it builds the per-worker datasets (from a pickled
``dataset_fn``) and runs scheduled functions, shipped as compiled programs (``jax.export``):
read the Variables from the ps tasks, run, send the deltas back.

Transport: `ClusterManager`, a ``multiprocessing.managers.BaseManager`` (authenticated
connections, pickled arguments); no protocol of companion's own.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import pickle
import threading
import time
import traceback
from multiprocessing import AuthenticationError
from multiprocessing.managers import BaseManager

import jax
import numpy as np
from jax import export

from companion._core import _nest
from companion._core._errors import OutOfRangeError, UnavailableError

CONNECT_TIMEOUT = 120.0


class ClusterManager(BaseManager):
    """The manager class every task serves and every client connects with."""


ClusterManager.register("store")
ClusterManager.register("worker")


def authkey(cluster: dict, secret: str | None = None) -> bytes:
    """The connections' key: from ``secret`` (``COMPANION_CLUSTER_SECRET``), else from the cluster."""
    secret = secret or os.environ.get("COMPANION_CLUSTER_SECRET") or ""
    text = json.dumps({job: list(cluster[job]) for job in sorted(cluster)}) + secret
    return hashlib.sha256(text.encode()).digest()


_UNREACHABLE = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT}


def socket_dir(explicit: str | None = None) -> str | None:
    """The folder of the cluster's Unix sockets, if it talks over them (`create_local_cluster`)."""
    return explicit or os.environ.get("COMPANION_CLUSTER_SOCKETS") or None


def endpoint(address: str, sockets: str | None = None):
    """Where the task named ``address`` (``host:port``) listens: ``(host, port)`` over TCP, or the
    path of a Unix socket in ``sockets`` (a folder; local clusters, which need no network)."""
    host, _, port = address.rpartition(":")
    sockets = socket_dir(sockets)
    if sockets:
        return os.path.join(sockets, f"{host}-{port}.sock")
    return host, int(port)


def connect(address: str, key: bytes, what: str, timeout: float = CONNECT_TIMEOUT,
            sockets: str | None = None):
    """A connected `ClusterManager` for the task at ``address`` (retrying while it starts)."""
    deadline = time.monotonic() + timeout
    where = endpoint(address, sockets)
    if isinstance(where, str) and not os.path.isdir(os.path.dirname(where)):
        raise UnavailableError(f"Cannot reach {what} at {address}: its local cluster was shut down (its "
                               f"socket folder {os.path.dirname(where)} is gone). Start a new one with "
                               "tf.distribute.experimental.create_local_cluster() and make the strategy "
                               "from its cluster_resolver.")
    while True:
        manager = ClusterManager(address=where, authkey=key)
        try:
            manager.connect()
            return manager
        except AuthenticationError:
            raise PermissionError(
                f"{what} at {address} refused the connection key: it serves another cluster (its "
                "TF_CONFIG cluster or COMPANION_CLUSTER_SECRET differs from this process's).") from None
        except (ConnectionError, OSError, EOFError) as error:
            if getattr(error, "errno", None) in _UNREACHABLE:
                raise UnavailableError(
                    f"Cannot reach {what} at {address}: {error}. This process has no network route to "
                    "it (in a sandbox without a network, even localhost is unreachable): use "
                    "tf.distribute.experimental.create_local_cluster(), which connects over Unix "
                    "sockets.") from None
            if time.monotonic() > deadline:
                raise UnavailableError(
                    f"Could not reach {what} at {address} within {timeout:g} s ({error}). Start it "
                    "first: a ps/worker task runs tf.distribute.Server(...).join() (companion-launch "
                    "--ps N starts them), or use tf.distribute.experimental.create_local_cluster()."
                ) from None
            time.sleep(0.2)


class VariableStore:
    """A ps task's Variables: NumPy arrays with versions, updated atomically under one lock."""

    def __init__(self):
        self._lock = threading.Lock()
        self._values = {}
        self._versions = {}
        self.bytes_read = 0
        self.bytes_written = 0

    def create(self, key, value):
        """Adds Variable ``key`` with ``value`` (version 0)."""
        with self._lock:
            self._values[key] = np.array(value, copy=True)
            self._versions[key] = 0

    def read(self, keys):
        """``(values, versions)`` of ``keys``, consistent with each other."""
        with self._lock:
            values = [self._values[k].copy() for k in keys]
            self.bytes_read += sum(v.nbytes for v in values)
            return values, [self._versions[k] for k in keys]

    def apply(self, deltas, assigned, read_versions):
        """Adds ``deltas`` (key -> array) and sets ``assigned`` (key -> array), atomically.

        Returns the staleness of the update: the most updates any of its Variables received
        since ``read_versions`` (key -> version the worker read).
        """
        staleness = 0
        with self._lock:
            for key, delta in deltas.items():
                self._values[key] = (self._values[key] + delta).astype(self._values[key].dtype)
            for key, value in assigned.items():
                self._values[key] = np.array(value, dtype=self._values[key].dtype, copy=True)
            for key in list(deltas) + list(assigned):
                if key in read_versions:
                    staleness = max(staleness, self._versions[key] - read_versions[key])
                self._versions[key] += 1
            self.bytes_written += sum(np.asarray(v).nbytes for v in (*deltas.values(), *assigned.values()))
        return staleness

    def stats(self):
        """``{"variables", "bytes_read", "bytes_written", "versions"}`` of this store."""
        with self._lock:
            return {"variables": len(self._values), "bytes_read": self.bytes_read,
                    "bytes_written": self.bytes_written, "versions": dict(self._versions)}


class WorkerRuntime:
    """A worker task: per-worker datasets and iterators, and the compiled scheduled functions."""

    def __init__(self, cluster: dict, key: bytes, task_index: int, sockets: str | None = None):
        self._cluster = cluster
        self._key = key
        self._sockets = sockets
        self._index = task_index
        self._stores = {}
        self._programs = {}
        self._datasets = {}
        self._iterators = {}
        self._lock = threading.Lock()  # one scheduled function at a time on a worker

    def ping(self):
        return os.getpid()

    def create_dataset(self, dataset_id, blob):
        """Builds dataset ``dataset_id`` by calling the pickled ``dataset_fn`` here."""
        try:
            with self._lock:
                self._datasets[dataset_id] = pickle.loads(blob)()
        except BaseException as error:  # noqa: B036 (sent back to the coordinator as text)
            return _error_record(error, self._index)
        return None

    def create_iterator(self, dataset_id, iterator_id):
        with self._lock:
            self._iterators[iterator_id] = iter(self._datasets[dataset_id])
        return None

    def execute(self, request):
        """Runs one scheduled function; ``{"outputs": [...], "staleness": n}`` or ``{"error": ...}``."""
        try:
            with self._lock:
                return self._execute(request)
        except BaseException as error:  # noqa: B036 (sent back to the coordinator as text)
            return {"error": _error_record(error, self._index)}

    def _execute(self, request):
        program = self._program(request["program"], request.get("blob"))
        feeds = self._feeds(request["feeds"], request["feed_shapes"])
        values, versions = self._read(request["reads"])
        outs = [np.asarray(o) for o in program(*request["args"], *values, *feeds)]
        n_out = request["n_out"]
        old = {_name(placement): value for placement, value in zip(request["reads"], values)
               if not isinstance(placement, dict)}
        staleness = self._write(request["writes"], outs[n_out:], old, versions)
        return {"outputs": outs[:n_out], "staleness": staleness}

    def _program(self, program_id, blob):
        program = self._programs.get(program_id)
        if program is None:
            if blob is None:
                raise KeyError(f"program {program_id} was never sent to this worker")

            program = self._programs[program_id] = jax.jit(export.deserialize(blob).call)
        return program

    def _feeds(self, feeds, shapes):
        """The arrays of the dataset elements the function takes (``next(iterator)`` calls)."""
        elements = {}
        out = []
        for (iterator_id, call, index), shape in zip(feeds, shapes):
            if (iterator_id, call) not in elements:
                try:
                    element = next(self._iterators[iterator_id])
                except StopIteration:
                    raise OutOfRangeError(f"End of sequence: the per-worker dataset of worker {self._index} "
                                          "has no more elements. Add .repeat() to the dataset that "
                                          "dataset_fn returns, or schedule fewer functions.") from None
                leaves = jax.tree_util.tree_leaves(element, is_leaf=_nest.is_value)
                elements[(iterator_id, call)] = [np.asarray(getattr(x, "_value", x)) for x in leaves]
            array = elements[(iterator_id, call)][index]
            if tuple(array.shape) != tuple(shape):
                raise ValueError(f"A dataset element on worker {self._index} has shape "
                                 f"{tuple(array.shape)}, but the scheduled function was compiled for shape "
                                 f"{tuple(shape)}. Elements of a per-worker dataset must all have the same "
                                 "shape: batch with drop_remainder=True.")
            out.append(array)
        return out

    def _store(self, task):
        store = self._stores.get(task)
        if store is None:
            address = self._cluster["ps"][task]
            store = connect(address, self._key, f"ps task {task}", sockets=self._sockets).store()
            self._stores[task] = store
        return store

    def _call_store(self, task, method, *args):
        try:
            return getattr(self._store(task), method)(*args)
        except (EOFError, OSError) as error:
            self._stores.pop(task, None)
            raise ps_unavailable(task, self._cluster["ps"][task], error) from None

    def _read(self, reads):
        """Each Variable's value (its row blocks joined) and the version of every block read.

        ``reads`` lists each Variable's placement: ``[(ps task, key, rows), ...]``, one entry per block,
        or ``{"value": array}`` for a value sent with the request.
        """
        by_task = {}
        for placement in reads:
            for task, key, _ in ([] if isinstance(placement, dict) else placement):
                by_task.setdefault(task, []).append(key)
        blocks, versions = {}, {}
        for task, keys in by_task.items():
            got, got_versions = self._call_store(task, "read", keys)
            blocks.update(zip(keys, got))
            versions.update(zip(keys, got_versions))
        values = [placement["value"] if isinstance(placement, dict)  # sent along (a random key)
                  else _joined([blocks[key] for _, key, _ in placement]) for placement in reads]
        return values, versions

    def _write(self, writes, written, old, versions):
        """Sends ``new - old`` of each written Variable it read (its value if it did not read it),
        split in the Variable's row blocks; returns the update's staleness."""
        per_task = {}
        for placement, new in zip(writes, written):
            if placement is None:
                continue  # a random-number state: it stays on the chief
            previous = old.get(_name(placement))
            delta = previous is not None and new.dtype != np.bool_
            parts = _split(new - previous if delta else new, placement)
            for (task, key, _), part in zip(placement, parts):
                deltas, assigned, read_versions = per_task.setdefault(task, ({}, {}, {}))
                (deltas if delta else assigned)[key] = part
                if delta:
                    read_versions[key] = versions[key]
        staleness = 0
        for task, (deltas, assigned, read_versions) in per_task.items():
            staleness = max(staleness, self._call_store(task, "apply", deltas, assigned, read_versions))
        return staleness


def ps_unavailable(task, address, error):
    """The error of a lost ps task: training cannot go on without the Variables it stores."""
    return UnavailableError(f"ps task {task} at {address} is unavailable ({type(error).__name__}: {error}). "
                            "The Variables it stores are lost, so parameter-server training cannot go on; "
                            "restart the cluster (and restore a checkpoint).")


def _name(placement):
    return tuple(key for _, key, _ in placement)


def _joined(blocks):
    return blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=0)


def _split(value, placement):
    """``value`` cut into the row blocks of ``placement`` (one block: itself)."""
    if len(placement) == 1:
        return [value]
    return np.split(value, np.cumsum([rows for _, _, rows in placement])[:-1], axis=0)


def _error_record(error, index):
    kind = type(error)
    return {"module": kind.__module__, "name": kind.__qualname__, "message": str(error),
            "traceback": traceback.format_exc(), "worker": index}


def serve(address: str, key: bytes, job: str, index: int, cluster: dict, sockets: str | None = None):
    """Serves this task's object at ``address`` (or its Unix socket in ``sockets``) until the process ends."""
    sockets = socket_dir(sockets)
    if job == "ps":
        store = VariableStore()
        ClusterManager.register("store", callable=lambda: store)
    else:
        runtime = WorkerRuntime(cluster, key, index, sockets)
        ClusterManager.register("worker", callable=lambda: runtime)
    manager = ClusterManager(address=endpoint(address, sockets), authkey=key)
    server = manager.get_server()
    server.serve_forever()

"""``ClusterCoordinator``: schedules functions on the workers of a `ParameterServerStrategy`.

`ClusterCoordinator.schedule` stages the function (once per signature, `ScheduledProgram`)
and queues a *closure*; one dispatcher thread per worker takes closures from the queue and
has its worker run them (`WorkerRuntime.execute`), so workers run asynchronously, each at
its own pace, and each update lands on the ps tasks whenever its worker finishes.

Failures, as in TensorFlow: an error raised by a scheduled function is kept; ``join``,
``done`` and the next ``schedule`` raise it (with the worker's traceback in the message)
and closures still queued are cancelled. A worker whose process stops (its connection
breaks) is recorded in `ClusterCoordinator.worker_failures` and the closure it was running is
put back at the head of the queue for the other workers; with no worker left, the queued
closures fail with `UnavailableError`.
"""

from __future__ import annotations

import collections
import importlib
import threading

import jax

from companion._core._errors import CancelledError, UnavailableError
from companion._staging._concrete_function import ConcreteFunction
from companion._staging._function import Function
from companion.distribute import _ps_service
from companion.distribute._coordinator_data import PerWorkerDataset
from companion.distribute._parameter_server_strategy import ParameterServerStrategy
from companion.distribute._scheduled_program import PerWorkerValues, ScheduledProgram, call_signature


class RemoteValue:
    """The result of a scheduled function (TF's ``tf.distribute.experimental.coordinator.RemoteValue``).

    companion extensions: ``staleness``, how many updates other workers applied to the
    Variables this function wrote between its read and its update (None until it finished,
    or if it wrote none); ``worker``, the index of the worker that ran it.
    """

    def __init__(self, program):
        self._program = program
        self._done = threading.Event()
        self._outputs = None
        self._error = None
        self.staleness = None
        self.worker = None

    def _set(self, outputs, staleness):
        self._outputs = outputs
        self.staleness = staleness
        self._done.set()

    def _fail(self, error):
        self._error = error
        self._done.set()

    def fetch(self):
        """Waits for the function and returns its outputs as NumPy values (raises its error)."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._program.unpack(self._outputs, as_tensors=False)

    def get(self):
        """Waits for the function and returns its outputs as Tensors (raises its error)."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._program.unpack(self._outputs, as_tensors=True)

    def __repr__(self):
        status = "pending" if not self._done.is_set() else "failed" if self._error else "done"
        return f"<companion RemoteValue {status}>"


class _Closure:
    def __init__(self, program, request, remote_value):
        self.program = program
        self.request = request
        self.remote_value = remote_value


class _Worker:
    def __init__(self, index, address, key, sockets):
        self.index = index
        self.address = address
        self.manager = _ps_service.connect(address, key, f"worker task {index}", sockets=sockets)
        self.alive = True
        self.sent = set()
        self.local = threading.local()

    def proxy(self):
        proxy = getattr(self.local, "proxy", None)
        if proxy is None:
            proxy = self.local.proxy = self.manager.worker()
        return proxy


class ClusterCoordinator:
    """Schedules functions on the workers of a `ParameterServerStrategy` (TF's
    ``tf.distribute.experimental.coordinator.ClusterCoordinator``); one per strategy.

    companion extensions: ``staleness`` (a list, one int per finished function that wrote
    Variables, in the order their updates landed: see `RemoteValue`), ``update_log`` (the same
    updates as ``{"worker": i, "staleness": s}``) and ``worker_failures`` (a list of messages,
    one per worker that stopped).

    Example:
        A coordinator drives a parameter-server strategy only (the README's "Parameter servers"
        section shows a whole run):

        >>> import companion as tf
        >>> tf.distribute.experimental.coordinator.ClusterCoordinator(tf.distribute.get_strategy())
        Traceback (most recent call last):
        ...
        ValueError: ClusterCoordinator needs a tf.distribute.experimental.ParameterServerStrategy. ...
    """

    def __new__(cls, strategy):
        if not isinstance(strategy, ParameterServerStrategy):
            raise ValueError("ClusterCoordinator needs a tf.distribute.experimental.ParameterServerStrategy. "
                             f"Received: {strategy!r}")
        if strategy._coordinator is None:
            coordinator = super().__new__(cls)
            coordinator._start(strategy)
            strategy._coordinator = coordinator
        return strategy._coordinator

    def _start(self, strategy):
        self._strategy = strategy
        self._programs = {}
        self._cond = threading.Condition()
        self._queue = collections.deque()
        self._inflight = 0
        self._error = None
        self.staleness = []
        self.update_log = []
        self.worker_failures = []
        cluster = strategy._cluster
        self._workers = [_Worker(i, address, strategy._key, strategy._sockets)
                         for i, address in enumerate(cluster["worker"])]
        for worker in self._workers:
            worker.proxy().ping()
        self._threads = [threading.Thread(target=self._dispatch, args=(w,), daemon=True,
                                          name=f"companion-dispatch-{w.index}") for w in self._workers]
        for thread in self._threads:
            thread.start()

    @property
    def strategy(self):
        return self._strategy

    # -- the public API -------------------------------------------------------------------------
    def schedule(self, fn, args=None, kwargs=None):
        """Queues ``fn(*args, **kwargs)`` for a worker and returns its `RemoteValue` at once.

        ``fn`` must be a ``tf.function`` (a compiled program is shipped to the worker).
        """
        if not isinstance(fn, (Function, ConcreteFunction)):
            raise TypeError("`tf.distribute.experimental.coordinator.ClusterCoordinator.schedule` only "
                            f"accepts a `tf.function` or a concrete function. Received: {fn!r}; decorate it "
                            "with @tf.function.")
        if isinstance(fn, ConcreteFunction):
            raise NotImplementedError("companion's ClusterCoordinator.schedule takes the tf.function itself, "
                                      "not one of its concrete functions.")
        self._raise_pending()
        args, kwargs = tuple(args or ()), dict(kwargs or {})
        with self._strategy.scope():
            key = call_signature(fn, args, kwargs)
            program = self._programs.get(key)
            if program is None:
                program = self._programs[key] = ScheduledProgram(self._strategy, fn, args, kwargs)
        remote_value = RemoteValue(program)
        closure = _Closure(program, program.request(args, kwargs), remote_value)
        with self._cond:
            if not any(w.alive for w in self._workers):
                raise UnavailableError("No worker is left to run scheduled functions: "
                                       f"{self.worker_failures}")
            self._queue.append(closure)
            self._cond.notify_all()
        return remote_value

    def join(self):
        """Waits until every scheduled function has finished; raises the first error one raised."""
        with self._cond:
            while (self._queue or self._inflight) and self._error is None:
                self._cond.wait()
        self._raise_pending()

    def done(self):
        """Whether every scheduled function has finished (raises the first error one raised)."""
        self._raise_pending()
        with self._cond:
            return not self._queue and not self._inflight

    def fetch(self, val):
        """``val`` (a structure of `RemoteValue`) with each replaced by its NumPy result."""
        return jax.tree_util.tree_map(lambda v: v.fetch() if isinstance(v, RemoteValue) else v, val,
                                      is_leaf=lambda v: isinstance(v, RemoteValue))

    def create_per_worker_dataset(self, dataset_fn):
        """``dataset_fn()`` built on every worker; ``iter`` of it gives a per-worker iterator."""
        return PerWorkerDataset(self, dataset_fn)

    # -- workers -----------------------------------------------------------------------------
    def _raise_pending(self):
        with self._cond:
            error, self._error = self._error, None
        if error is not None:
            raise error

    def _alive(self):
        return [w for w in self._workers if w.alive]

    def _create_dataset(self, dataset_id, blob):
        for worker in self._alive():
            try:
                failure = worker.proxy().create_dataset(dataset_id, blob)
            except (EOFError, OSError) as error:
                self._lost(worker, error)
                continue
            if failure is not None:
                raise _rebuilt(failure, "dataset_fn")

    def _create_iterator(self, dataset_id, iterator_id):
        done = []
        for worker in self._alive():
            try:
                worker.proxy().create_iterator(dataset_id, iterator_id)
                done.append(worker.index)
            except (EOFError, OSError) as error:
                self._lost(worker, error)
        return done

    def _lost(self, worker, error):
        with self._cond:
            if worker.alive:
                worker.alive = False
                self.worker_failures.append(
                    f"worker {worker.index} at {worker.address} is unavailable ({type(error).__name__}: "
                    f"{error}); its scheduled functions go to the other workers")
            if not any(w.alive for w in self._workers):
                self._fail_queued()
            self._cond.notify_all()

    def _fail_queued(self, closure=None):
        """With no worker left: every queued closure (and ``closure``) fails with UnavailableError."""
        error = UnavailableError("Every worker is unavailable: " + "; ".join(self.worker_failures))
        failed = ([closure] if closure else []) + list(self._queue)
        for queued in failed:
            queued.remote_value._fail(error)
        self._queue.clear()
        if failed and self._error is None:
            self._error = error

    def _dispatch(self, worker):
        while True:
            with self._cond:
                while not self._queue and worker.alive:
                    self._cond.wait()
                if not worker.alive:
                    return
                closure = self._queue.popleft()
                self._inflight += 1
            request = closure.request
            program = closure.program
            if program.id not in worker.sent:
                request = dict(request, blob=program.blob)
            try:
                reply = worker.proxy().execute(request)
            except (EOFError, OSError) as error:
                self._lost(worker, error)
                self._requeue(closure)
                return
            worker.sent.add(program.id)
            with self._cond:
                self._inflight -= 1
                if "error" in reply:
                    error = _rebuilt(reply["error"], "the scheduled function")
                    closure.remote_value._fail(error)
                    if self._error is None:
                        self._error = error
                    self._cancel_queued()
                else:
                    staleness = int(reply["staleness"]) if program.writes else None
                    if program.writes:
                        self.staleness.append(staleness)
                        self.update_log.append({"worker": worker.index, "staleness": staleness})
                    closure.remote_value.worker = worker.index
                    closure.remote_value._set(reply["outputs"], staleness)
                self._cond.notify_all()

    def _requeue(self, closure):
        with self._cond:
            self._inflight -= 1
            if any(w.alive for w in self._workers):
                self._queue.appendleft(closure)  # TF: a preempted worker's closure runs on another
            else:
                self._fail_queued(closure)
            self._cond.notify_all()

    def _cancel_queued(self):
        for queued in self._queue:
            queued.remote_value._fail(CancelledError(
                "This scheduled function was cancelled because an earlier one failed (see the error "
                "join() raised)."))
        self._queue.clear()


def _rebuilt(record, what):
    """The worker's exception, of the same class when possible, with the worker's traceback."""
    message = (f"{record['message']}\n\n{what} failed on worker {record['worker']}; the worker's traceback:\n"
               f"{record['traceback']}")
    try:
        kind = importlib.import_module(record["module"])
        for part in record["name"].split("."):
            kind = getattr(kind, part)
        if isinstance(kind, type) and issubclass(kind, Exception):
            return kind(message)
    except Exception:  # noqa: BLE001 (fall back to a plain error below)
        pass
    return RuntimeError(f"{record['module']}.{record['name']}: {message}")


__all__ = ["ClusterCoordinator", "PerWorkerValues", "RemoteValue"]

"""Iteration contexts: cancellation that reaches every thread of a pipeline, bounded buffers, worker pools.

Each ``iter(dataset)`` builds a tree of `Context`s (one per background stage). Cancelling
a context wakes every `BoundedBuffer` registered with it or with its children, so a
producer thread blocked on a full buffer, or a consumer blocked on an empty one, returns
at once and the thread can end. Threads are daemons and are joined when their stage closes.
"""

import collections
import concurrent.futures
import contextlib
import itertools
import queue
import threading

from companion._core._context import state
from companion._staging import eager_scope

_THREAD_NUMBERS = itertools.count()
JOIN_TIMEOUT_S = 10.0  # a stage waits this long for its thread (a user function may be mid-call)


@contextlib.contextmanager
def outside_user_code():
    """Runs pipeline work as plain eager code: invisible to the caller's GradientTapes, and eager
    even when a dataset is iterated while `companion.function` traces (elements become constants)."""
    if not (state.tapes or state.staging):
        yield
        return
    tapes, state.tapes = state.tapes, []
    try:
        with eager_scope():
            yield
    finally:
        state.tapes = tapes


class Cancelled(Exception):
    """Raised inside a pipeline thread when its iterator was closed; never reaches users."""


class Context:
    """The state shared by the stages of one iteration: options and cancellation."""

    def __init__(self, options, parent=None):
        self.options = options
        # set below an `ignore_errors`: stages drop an element whose computation raised, and run
        # element by element (no fusion: one bad element must not cost a whole gathered batch)
        self.skip_errors = None if parent is None else parent.skip_errors
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks = []
        self._children = []
        if parent is not None:
            parent._adopt(self)

    @property
    def fuse(self):
        """Whether index-gather fusion and map vectorisation may be used."""
        if self.skip_errors is not None:
            return False
        return self.options.experimental_optimization.apply_default_optimizations is not False

    @property
    def cancelled(self):
        return self._event.is_set()

    def child(self):
        """A context cancelled with this one (and on its own by the stage that owns it)."""
        return Context(self.options, parent=self)

    def on_cancel(self, callback):
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def cancel(self):
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, children = self._callbacks, self._children
            self._callbacks, self._children = [], []
        for callback in callbacks:
            callback()
        for child in children:
            child.cancel()

    def _adopt(self, child):
        with self._lock:
            if not self._event.is_set():
                self._children.append(child)
                return
        child.cancel()


class BoundedBuffer:
    """A FIFO of at most ``capacity`` items between a producer and a consumer thread."""

    def __init__(self, capacity, ctx):
        self._capacity = max(1, int(capacity))
        self._items = collections.deque()
        self._cond = threading.Condition()
        self._closed = False
        ctx.on_cancel(self.close)

    def put(self, item):
        """Appends ``item``, waiting for room; False when the buffer was closed meanwhile."""
        with self._cond:
            while len(self._items) >= self._capacity and not self._closed:
                self._cond.wait()
            if self._closed:
                return False
            self._items.append(item)
            self._cond.notify_all()
            return True

    def get(self):
        """The oldest item, waiting for one. Raises `Cancelled` once the buffer is closed."""
        with self._cond:
            while not self._items and not self._closed:
                self._cond.wait()
            if self._closed:
                raise Cancelled()
            item = self._items.popleft()
            self._cond.notify_all()
            return item

    def __len__(self):
        return len(self._items)

    def close(self):
        with self._cond:
            self._closed = True
            self._items.clear()
            self._cond.notify_all()


def start_thread(target, name):
    """Starts ``target`` in a daemon thread (a stuck user function never blocks interpreter exit)."""
    thread = threading.Thread(target=target, name=f"{name}-{next(_THREAD_NUMBERS)}", daemon=True)
    thread.start()
    return thread


class WorkerPool:
    """``size`` daemon threads running submitted calls; `shutdown` stops and joins them."""

    def __init__(self, size, name):
        self._tasks = queue.SimpleQueue()
        self._threads = [start_thread(self._work, name) for _ in range(size)]

    def submit(self, fn, *args):
        future = concurrent.futures.Future()
        self._tasks.put((future, fn, args))
        return future

    def shutdown(self):
        for _ in self._threads:
            self._tasks.put(None)
        for thread in self._threads:
            thread.join(JOIN_TIMEOUT_S)

    def _work(self):
        while True:
            task = self._tasks.get()
            if task is None:
                return
            future, fn, args = task
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as error:  # handed to the consumer as is
                future.set_exception(error)
                del error


class Slots:
    """A counting semaphore whose waiters wake (with False) when the context is cancelled."""

    def __init__(self, count, ctx):
        self._free = count
        self._cond = threading.Condition()
        self._closed = False
        ctx.on_cancel(self.close)

    def acquire(self):
        with self._cond:
            while self._free == 0 and not self._closed:
                self._cond.wait()
            if self._closed:
                return False
            self._free -= 1
            return True

    def release(self):
        with self._cond:
            self._free += 1
            self._cond.notify()

    def close(self):
        with self._cond:
            self._closed = True
            self._cond.notify_all()

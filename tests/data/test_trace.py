"""companion.data.experimental.trace: spans per stage, thread and element, on one clock; the timeline plot.

Overlap and parallelism are checked structurally (events and barriers that can only be
passed when two things run at once), never with a wall-clock threshold.
"""

import threading
import time

import matplotlib
import pytest

import companion as tf
from companion.data import _trace

matplotlib.use("Agg")
trace, trace_span = tf.data.experimental.trace, tf.data.experimental.trace_span
TIMEOUT_S = 10


def _generated(n, before=None):
    def gen():
        for i in range(n):
            if before is not None:
                before(i)
            yield (i,)

    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((1,), tf.int64))


def _of(timeline, stage):
    return [span for span in timeline.spans if span.stage == stage]


def test_each_stage_records_one_span_per_element():
    files = tf.data.Dataset.range(2).interleave(lambda _: _generated(3), cycle_length=2)
    ds = files.map(lambda x: x * 2).cache().prefetch(1)
    list(ds)  # fills the cache
    with trace() as timeline:
        first = [int(x[0]) for x in files.map(lambda x: x * 2).prefetch(1)]
        again = [int(x[0]) for x in ds]
        with trace_span("train", 7):
            pass
    assert first == again == [0, 0, 2, 2, 4, 4]
    assert sorted(s.index for s in _of(timeline, "generator")) == [0, 0, 1, 1, 2, 2]
    assert sorted(s.index for s in _of(timeline, "interleave")) == [0, 1]
    assert sorted(s.index for s in _of(timeline, "map")) == list(range(6))
    assert sorted(s.index for s in _of(timeline, "prefetch")) == sorted(list(range(6)) * 2)
    assert [s.index for s in _of(timeline, "cache")] == list(range(6))
    assert [(s.thread, s.index) for s in _of(timeline, "train")] == [("main", 7)]
    assert {s.thread for s in _of(timeline, "prefetch")} == {"main"}
    assert {s.thread for s in _of(timeline, "generator")} <= {"prefetch-0", "prefetch-1"}
    assert all(0 <= s.start <= s.end <= timeline.elapsed for s in timeline.spans)


def test_a_parallel_map_runs_on_more_than_one_thread():
    both_running = threading.Barrier(2, timeout=TIMEOUT_S)

    def wait_for_the_other(x):
        if int(x[0]) >= 2:  # after the first calls (which compile the function, one at a time)
            both_running.wait()  # passes only with two calls in flight at once
        return x

    def meet(x):
        return tf.py_function(wait_for_the_other, [x], tf.TensorSpec((1,), tf.int64))

    ds = _generated(4).map(meet, num_parallel_calls=2)
    with trace() as timeline:
        assert [int(x[0]) for x in ds] == [0, 1, 2, 3]
    threads = {span.thread for span in _of(timeline, "map")}
    assert threads == {"map-0", "map-1"}


def test_a_sequential_map_and_source_run_on_the_consumers_thread_one_after_another():
    with trace() as timeline:
        for step, _ in enumerate(_generated(3)):
            with trace_span("train", step):
                pass
    spans = [(s.stage, s.thread, s.index) for s in timeline.spans if s.stage in ("generator", "train")]
    assert spans == [("generator", "main", 0), ("train", "main", 0), ("generator", "main", 1),
                     ("train", "main", 1), ("generator", "main", 2), ("train", "main", 2)]


def test_prefetch_produces_the_next_element_while_the_consumer_trains():
    producing = {i: threading.Event() for i in range(4)}
    ds = _generated(4, before=lambda i: producing[i].set()).prefetch(1)
    with trace() as timeline:
        for step, _ in enumerate(ds):
            with trace_span("train", step):
                # the step only ends once the producer has started on the next element
                assert step == 3 or producing[step + 1].wait(TIMEOUT_S)
    generated = {s.index: s for s in _of(timeline, "generator")}
    trained = {s.index: s for s in _of(timeline, "train")}
    for k in range(3):
        assert generated[k + 1].start < trained[k].end
        assert generated[k + 1].thread == "prefetch-0" and trained[k].thread == "main"


def test_without_prefetch_the_next_element_starts_after_the_step():
    with trace() as timeline:
        for step, _ in enumerate(_generated(3)):
            with trace_span("train", step):
                time.sleep(0.001)
    generated = {s.index: s for s in _of(timeline, "generator")}
    trained = {s.index: s for s in _of(timeline, "train")}
    assert all(generated[k + 1].start >= trained[k].end for k in range(2))


def test_nothing_is_recorded_outside_the_block():
    ds = _generated(4).map(lambda x: x + 1).prefetch(1)
    list(ds)
    with trace_span("train"):  # no active trace: a no-op
        pass
    it = iter(ds)
    next(it)
    with trace() as timeline:
        next(it)
    count = len(timeline.spans)
    assert count > 0
    list(it)
    list(ds)
    with trace_span("train"):
        pass
    assert len(timeline.spans) == count
    assert _trace.ACTIVE is None


def test_spans_are_on_one_clock_and_tabulate():
    with trace() as timeline:
        with trace_span("outer", 0):
            with trace_span("inner", 1):
                pass
    inner, outer = sorted(_of(timeline, "inner") + _of(timeline, "outer"), key=lambda s: s.stage)
    assert outer.start <= inner.start <= inner.end <= outer.end
    rows = timeline.to_rows()
    assert [sorted(row) for row in rows] == [["duration", "end", "index", "stage", "start", "thread"]] * 2
    assert rows[0]["duration"] == pytest.approx(rows[0]["end"] - rows[0]["start"])
    assert "2 spans" in repr(timeline)


def test_the_plot_has_one_row_per_stage_and_thread():
    ds = _generated(3).map(lambda x: x, num_parallel_calls=2).prefetch(1)
    with trace() as timeline:
        for step, _ in enumerate(ds):
            with trace_span("train", step):
                time.sleep(0.001)
    ax = timeline.plot(stages=["generator", "train"])
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert labels == ["generator (map-runner-0)", "train (main)"]
    assert len(ax.collections) == 2
    all_rows = timeline.plot().get_yticklabels()
    assert len(all_rows) == len({(s.stage, s.thread) for s in timeline.spans})


def test_traces_do_not_nest():
    with trace():
        with pytest.raises(RuntimeError, match="already active"):
            with trace():
                pass
    with trace() as timeline:  # the failed nesting left no trace behind
        with trace_span("train"):
            pass
    assert len(_of(timeline, "train")) == 1


@pytest.mark.parametrize("kwargs, match", [({"stage": ""}, "non-empty string"),
                                           ({"stage": 3}, "Received: stage=3"),
                                           ({"stage": "train", "index": 1.5}, "index=1.5"),
                                           ({"stage": "train", "index": True}, "index=True")])
def test_trace_span_rejects_bad_arguments(kwargs, match):
    with pytest.raises(TypeError, match=match):
        with trace_span(**kwargs):
            pass


def test_the_plot_names_unknown_stages():
    with trace() as timeline:
        with trace_span("train"):
            pass
    with pytest.raises(ValueError, match=r"\['map'\].*Recorded stages: \['train'\]"):
        timeline.plot(stages=["map"])
    with pytest.raises(TypeError, match=r"stages=\['train'\]"):
        timeline.plot(stages="train")


def test_py_function_in_a_map_runs_for_every_element():
    # TF 2.21: a map calling tf.py_function(f, [], ()) calls f once per element (5 for range(5)),
    # also when the source is in memory (companion then does not vectorise the map)
    calls = []

    def mark(x):
        tf.py_function(lambda: calls.append(1), [], ())
        return x

    for ds in (tf.data.Dataset.range(5), _generated(5)):
        calls.clear()
        list(ds.map(mark))
        list(ds.map(mark))
        assert len(calls) == 10


def test_py_function_without_inputs_runs_at_every_call_of_a_function():
    # TF 2.21: 3 calls of a tf.function holding py_function(f, [], ()) call f 3 times
    calls = []

    @tf.function
    def step(x):
        tf.py_function(lambda: calls.append(1), [], ())
        return x

    for i in range(3):
        step(tf.constant(i))
    assert len(calls) == 3


def test_the_guides_artificial_dataset_yields_one_tuples_as_vectors():
    # TF 2.21: from_generator(gen yielding (i,), output_signature=TensorSpec((1,), int64), args=(3,))
    # gives [array([0]), array([1]), array([2])]; interleaved twice, each value twice in turns
    def gen(num_samples):
        for i in range(num_samples):
            yield (i,)

    def artificial():
        return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((1,), tf.int64), args=(3,))

    assert [x.tolist() for x in artificial().as_numpy_iterator()] == [[0], [1], [2]]
    both = tf.data.Dataset.range(2).interleave(lambda _: artificial(), num_parallel_calls=2)
    assert [x.tolist() for x in both.as_numpy_iterator()] == [[0], [0], [1], [1], [2], [2]]


def test_a_cache_in_files_and_a_record_reader_record_their_spans(tmp_path):
    path = str(tmp_path / "records.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for text in (b"a", b"b"):
            writer.write(text)
    cached = _generated(3).cache(str(tmp_path / "cache"))
    list(cached)  # writes the cache files
    with trace() as timeline:
        assert [x.numpy().tolist() for x in cached] == [[0], [1], [2]]
        assert [bytes(x.numpy()) for x in tf.data.TFRecordDataset(path)] == [b"a", b"b"]
        flat = tf.data.Dataset.range(2).flat_map(lambda x: tf.data.Dataset.from_tensors(x))
        assert [int(x) for x in flat] == [0, 1]
    assert [s.index for s in _of(timeline, "cache")] == [0, 1, 2]
    assert _of(timeline, "generator") == []  # the files replaced the generator
    assert [s.index for s in _of(timeline, "read")] == [0, 1]
    assert [s.index for s in _of(timeline, "flat_map")] == [0, 1]


def test_an_empty_timeline_plots_empty_axes():
    with trace() as timeline:
        pass
    assert timeline.spans == [] and timeline.stages() == [] and timeline.to_rows() == []
    assert timeline.plot().get_yticklabels() == []

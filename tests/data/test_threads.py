"""Background threads: prefetch really runs ahead, and nothing leaks or hangs when consumers stop early."""

import gc
import threading
import time

import companion as tf
from companion._ops._py_function import py_function
from companion.data import AUTOTUNE, Dataset


def _wait_until(condition, timeout=10.0):
    """Polls ``condition`` (no wall-clock assertion: only a generous deadline against hangs)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def _settled_thread_count(expected):
    _wait_until(lambda: threading.active_count() <= expected)
    return threading.active_count()


def test_prefetch_produces_ahead_of_the_consumer():
    produced = []

    def gen():
        for i in range(10):
            produced.append(i)
            yield i

    ds = Dataset.from_generator(gen, output_signature=tf.TensorSpec([], tf.int64)).prefetch(3)
    it = iter(ds)
    assert int(next(it)) == 0
    # the background thread fills the buffer (3 more) and holds one element waiting for room
    assert _wait_until(lambda: len(produced) >= 4)
    assert [int(x) for x in it] == list(range(1, 10))


def test_no_thread_growth_over_1000_short_iterations():
    slow = Dataset.range(50).map(lambda x: x * 2, num_parallel_calls=2)
    ds = slow.interleave(lambda x: Dataset.from_tensors(x).repeat(2), cycle_length=2,
                         num_parallel_calls=2).prefetch(AUTOTUNE)
    next(iter(ds))  # compile the map once
    gc.collect()
    before = _settled_thread_count(threading.active_count())
    for _ in range(1000):
        for i, _ in enumerate(ds):
            if i == 2:
                break
    gc.collect()
    assert _settled_thread_count(before) == before


def test_an_infinite_source_stops_when_the_iterator_is_dropped():
    stopped = threading.Event()

    def endless():
        try:
            while True:
                yield 1
        finally:
            stopped.set()

    before = threading.active_count()
    it = iter(Dataset.from_generator(endless, output_signature=tf.TensorSpec([], tf.int32)).prefetch(2))
    next(it)
    del it
    gc.collect()
    assert _wait_until(stopped.is_set)
    assert _settled_thread_count(before) == before


def test_close_stops_parallel_map_mid_flight():
    def sleepy(x):
        time.sleep(0.01)
        return x

    ds = Dataset.range(1000).map(lambda x: py_function(sleepy, [x], tf.int64), num_parallel_calls=4)
    before = threading.active_count()
    it = iter(ds)
    next(it)
    it.close()
    assert _settled_thread_count(before) == before
    assert list(it) == []

"""Compiled programs held in memory are dropped before the process reaches the OS's cap on memory
mappings (`companion._compiled_programs`), and everything computes the same afterwards."""

import numpy as np
import pytest

import companion as tf
from companion import _compiled_programs

pytestmark = pytest.mark.skipif(_compiled_programs.mapping_count() is None,
                                reason="needs /proc/self/maps (Linux)")


def _many_programs(n):
    """``n`` distinct eager programs (one op kernel per shape), their results checked on the way."""
    for size in range(1, n + 1):
        x = np.arange(size, dtype=np.float32)
        np.testing.assert_allclose(tf.exp(tf.constant(x) * 0.5).numpy(), np.exp(x * 0.5), rtol=1e-6)


def test_the_process_is_watched_with_the_kernels_cap():
    assert _compiled_programs.watch()
    assert _compiled_programs.mapping_cap() == int(open("/proc/sys/vm/max_map_count").read())
    assert _compiled_programs.mapping_count() == len(open("/proc/self/maps").read().splitlines())


def test_dropping_the_programs_unmaps_their_code_and_results_stay_the_same():
    _many_programs(150)
    before = _compiled_programs.mapping_count()
    releases = _compiled_programs.releases()
    assert _compiled_programs.release_if_over(before + 10**6) is False  # under the bound: kept
    assert _compiled_programs.release_if_over(0) is True
    assert _compiled_programs.releases() == releases + 1
    after = _compiled_programs.mapping_count()
    assert after < before - 150, (before, after)  # each program had mapped its code and data
    _many_programs(20)  # compiled again on use, same values

    @tf.function
    def step(v):
        return tf.reduce_sum(v * v)

    assert float(step(tf.constant([1.0, 2.0, 3.0]))) == 14.0
    _compiled_programs.release()
    assert float(step(tf.constant([1.0, 2.0, 3.0]))) == 14.0  # a traced function compiles again


def test_a_count_due_drops_the_programs_at_the_next_batch_past_the_share(monkeypatch):
    monkeypatch.setattr(_compiled_programs, "CHECK_EVERY", 5)
    monkeypatch.setattr(_compiled_programs, "SHARE", 0.0)  # any process is past it
    releases = _compiled_programs.releases()
    _many_programs(12)  # compiles counted by JAX's monitoring events; the batches are safe points
    assert _compiled_programs.releases() > releases
    _many_programs(3)


def test_no_program_is_dropped_under_the_share(monkeypatch):
    monkeypatch.setattr(_compiled_programs, "CHECK_EVERY", 5)
    monkeypatch.setattr(_compiled_programs, "SHARE", 1.0)  # the cap itself: not reached here
    releases = _compiled_programs.releases()
    _many_programs(12)
    assert _compiled_programs.releases() == releases


def test_nothing_is_dropped_while_a_trace_is_active(monkeypatch):
    monkeypatch.setattr(_compiled_programs, "SHARE", 0.0)
    releases = _compiled_programs.releases()
    seen = []

    @tf.function
    def traced(v):
        monkeypatch.setitem(_compiled_programs._state, "due", True)
        _compiled_programs.at_safe_point()  # inside the trace: left due, not run
        seen.append(_compiled_programs._state["due"])
        return v + 1

    assert float(traced(tf.constant(1.0))) == 2.0
    assert seen == [True] and _compiled_programs.releases() == releases
    _compiled_programs.at_safe_point()  # outside: runs now
    assert _compiled_programs.releases() == releases + 1

"""Lecture lab L6 (parameter servers vs all-reduce): public checks in the kernel, the grader from the CLI."""

import heapq

import numpy as np
import pytest

from graders import l6
from graders._assignments import load_assignment
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_lab_variants

SOLUTION = ROOT / "solutions" / "lectures" / "L6_parameter_servers_vs_allreduce.ipynb"
LAST_CHECK = 'check("simulate_async_sgd"'


def ring_allreduce_bytes_per_worker(num_params, num_workers, bytes_per_param=4):
    return 2 * (num_workers - 1) * num_params * bytes_per_param / num_workers


def parameter_server_bytes(num_params, num_workers, num_ps, bytes_per_param=4):
    per_worker = num_params * bytes_per_param
    return {"per_worker": per_worker, "per_ps": num_workers * per_worker / num_ps,
            "total": 2 * num_workers * per_worker}


def simulate_async_sgd(step_times, num_updates):
    """The same events from a priority queue of (finish time, worker, version read)."""
    ready = [(t, i, 0) for i, t in enumerate(step_times)]
    heapq.heapify(ready)
    workers, staleness = [], []
    for version in range(num_updates):
        finish, worker, read = heapq.heappop(ready)
        workers.append(worker)
        staleness.append(version - read)
        heapq.heappush(ready, (finish + step_times[worker], worker, version + 1))
    return workers, staleness


def _ring_allreduce_sent(num_params, num_workers):
    """Bytes each worker sends in a ring all-reduce of float32 chunks, counted message by message."""
    chunk_bytes = [4 * len(c) for c in np.array_split(np.zeros(num_params), num_workers)]
    sent = [0] * num_workers
    for step in range(num_workers - 1):
        for w in range(num_workers):
            sent[w] += chunk_bytes[(w - step) % num_workers] + chunk_bytes[(w + 1 - step) % num_workers]
    return sent


@pytest.mark.parametrize("num_params, num_workers", [(1200, 1), (1200, 2), (1200, 8), (600, 3), (640, 5)])
def test_the_ring_formula_agrees_with_counting_the_messages(num_params, num_workers):
    sent = _ring_allreduce_sent(num_params, num_workers)
    assert sent == [ring_allreduce_bytes_per_worker(num_params, num_workers)] * num_workers


def test_parameter_server_totals_add_up_the_machines():
    found = parameter_server_bytes(10_000, 6, 4, 2)
    assert found["total"] == 6 * found["per_worker"] + 4 * found["per_ps"]


def test_equal_workers_reach_a_staleness_of_one_less_than_their_number():
    for workers in (1, 3, 7):
        assert simulate_async_sgd([1.0] * workers, 5 * workers)[1][workers:] == [workers - 1] * (4 * workers)


@pytest.mark.parametrize("exercise, obj", [
    ("ring_allreduce_bytes_per_worker", ring_allreduce_bytes_per_worker),
    ("parameter_server_bytes", parameter_server_bytes),
    ("simulate_async_sgd", simulate_async_sgd),
])
def test_correct_code_passes_the_public_checks(exercise, obj, capsys):
    l6.check(exercise, obj)
    assert capsys.readouterr().out.endswith("public tests passed\n")


def _ring_without_the_chunks(num_params, num_workers, bytes_per_param=4):
    return 2 * num_params * bytes_per_param


def _ring_reduce_scatter_only(num_params, num_workers, bytes_per_param=4):
    return (num_workers - 1) * num_params * bytes_per_param / num_workers


def _ps_not_split(num_params, num_workers, num_ps, bytes_per_param=4):
    return {**parameter_server_bytes(num_params, num_workers, num_ps, bytes_per_param),
            "per_ps": num_workers * num_params * bytes_per_param}


def _ps_pushes_only(num_params, num_workers, num_ps, bytes_per_param=4):
    return {**parameter_server_bytes(num_params, num_workers, num_ps, bytes_per_param),
            "total": num_workers * num_params * bytes_per_param}


def _ps_other_keys(num_params, num_workers, num_ps, bytes_per_param=4):
    found = parameter_server_bytes(num_params, num_workers, num_ps, bytes_per_param)
    return {"worker": found["per_worker"], "ps": found["per_ps"], "total": found["total"]}


def _staleness_counted_after_the_update(step_times, num_updates):
    workers, staleness = simulate_async_sgd(step_times, num_updates)
    return workers, [s + 1 for s in staleness]


def _ties_to_the_higher_index(step_times, num_updates):
    flipped = simulate_async_sgd(step_times[::-1], num_updates)
    return [len(step_times) - 1 - w for w in flipped[0]], flipped[1]


@pytest.mark.parametrize("exercise, obj, words", [
    ("ring_allreduce_bytes_per_worker", _ring_without_the_chunks, "in bytes"),
    ("ring_allreduce_bytes_per_worker", _ring_reduce_scatter_only, "in bytes"),
    ("parameter_server_bytes", _ps_not_split, "in per_ps"),
    ("parameter_server_bytes", _ps_pushes_only, "in total"),
    ("parameter_server_bytes", _ps_other_keys, "in keys"),
    ("simulate_async_sgd", _staleness_counted_after_the_update, "in staleness"),
    ("simulate_async_sgd", _ties_to_the_higher_index, "in workers"),
])
def test_each_mistake_fails_its_public_check_with_a_hint_for_it(exercise, obj, words):
    with pytest.raises(AssertionError) as failure:
        l6.check(exercise, obj)
    message = str(failure.value)
    assert words in message and "\nHint: " in message, message


def test_hidden_cases_change_with_the_seed_and_always_hold_a_lone_worker_and_a_straggler():
    assignment = load_assignment("l6")
    first, second = assignment.for_seed(1), assignment.for_seed(2)
    cases = {exercise.id: exercise.cases for exercise in first.exercises}
    assert cases != {exercise.id: exercise.cases for exercise in second.exercises}
    assert any(c.args[1] == 1 for c in cases["ring_allreduce_bytes_per_worker"])
    assert all(c.args[2] >= 2 for c in cases["parameter_server_bytes"])
    for c in cases["simulate_async_sgd"]:
        times = sorted(c.args[0])
        assert times[-1] >= 3 * times[-2]


MISTAKES = {
    "ring_without_chunks": {"ring_allreduce_bytes_per_worker": """
        def ring_allreduce_bytes_per_worker(num_params, num_workers, bytes_per_param=4):
            return 2 * num_params * bytes_per_param
        """},
    "ps_not_split": {"parameter_server_bytes": """
        def parameter_server_bytes(num_params, num_workers, num_ps, bytes_per_param=4):
            per_worker = num_params * bytes_per_param
            return {"per_worker": per_worker, "per_ps": num_workers * per_worker,
                    "total": 2 * num_workers * per_worker}
        """},
    "stale_after_update": {"simulate_async_sgd": """
        def simulate_async_sgd(step_times, num_updates):
            version, finish, read = 0, list(step_times), [0] * len(step_times)
            workers, staleness = [], []
            for _ in range(num_updates):
                worker = min(range(len(step_times)), key=lambda i: (finish[i], i))
                version += 1
                workers.append(worker)
                staleness.append(version - read[worker])
                read[worker] = version
                finish[worker] += step_times[worker]
            return workers, staleness
        """},
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The solution (cut after its last check), the lab and each mistake, graded in one CLI run."""
    return grade_lab_variants("l6", SOLUTION, ROOT / "labs" / "lectures" / SOLUTION.name, MISTAKES,
                              tmp_path_factory.mktemp("l6"), stop_after=LAST_CHECK)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "l6")


@pytest.mark.slow
@pytest.mark.notebook
def test_a_mistake_earns_nothing_for_its_exercise(graded):
    assert graded("ring_without_chunks") == {"ring_allreduce_bytes_per_worker": 0,
                                             "parameter_server_bytes": 1.0, "simulate_async_sgd": 1.0}
    assert graded("ps_not_split")["parameter_server_bytes"] == 0
    assert graded("stale_after_update")["simulate_async_sgd"] == 0

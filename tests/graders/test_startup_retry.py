"""A child that dies before the notebook's first cell ran none of the notebook's code: the runner
starts another; a child that dies inside a cell is the notebook's doing and is not retried."""

from graders import _runner
from graders._limits import Limits
from graders._runner import run_notebook

CELLS = [{"index": 0, "source": "def f():\n    return 41 + 1\n"}]
EXERCISES = [{"id": "f", "cases": [[]]}]


def _counting(monkeypatch, crash_first):
    real, calls = _runner._attempt, []

    def attempt(*args, **kwargs):
        calls.append(1)
        if crash_first and len(calls) == 1:
            crashed = _runner._Attempt()
            crashed.failure, crashed.exited_before_cells = "exited with code 70", True
            return crashed
        return real(*args, **kwargs)

    monkeypatch.setattr(_runner, "_attempt", attempt)
    return calls


def test_a_child_lost_before_the_first_cell_is_replaced_and_the_notebook_graded(monkeypatch):
    calls = _counting(monkeypatch, crash_first=True)
    run = run_notebook(CELLS, EXERCISES, Limits(notebook_timeout=60), ())
    assert len(calls) == 2 and run.stopped == ""
    assert run.exercises["f"].status == "ran"
    assert run.exercises["f"].outputs == [{"t": "int", "v": "42"}]


def test_a_notebook_that_kills_its_own_process_in_a_cell_is_not_run_again(monkeypatch):
    calls = _counting(monkeypatch, crash_first=False)
    cells = CELLS + [{"index": 1, "source": "import os\nos._exit(70)\n"}]
    run = run_notebook(cells, EXERCISES, Limits(notebook_timeout=60), ())
    assert len(calls) == 1
    assert "while running cell 1" in run.stopped and "70" in run.stopped
    assert run.exercises["f"].status == "failed"

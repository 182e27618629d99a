"""Reports of a graded batch: Gradescope results.json, feedback without hidden data, summary.csv, re-runs."""

import dataclasses
import json
import threading
import time
from types import SimpleNamespace

import pytest

from graders import _reference
from graders._assignments import load_assignment

pytestmark = pytest.mark.slow


@pytest.fixture
def graded(grader, toy):
    """One good and one partly wrong submission, graded once."""
    subs = grader.base / "subs"
    toy.submission(subs / "alice.ipynb")
    toy.submission(subs / "bob.ipynb", {"scale": "result = np.asarray(array) * factor + (factor == 2)"})
    done = grader.run(subs)
    assert done.returncode == 0, done.stderr
    return grader


def test_results_json_follows_gradescopes_format(graded):
    results = graded.results("bob")
    assert {"score", "execution_time", "output", "visibility", "tests"} <= set(results)
    assert results["score"] == 3.0 and results["execution_time"] > 0
    for test in results["tests"]:
        assert {"name", "score", "max_score", "output", "visibility"} <= set(test)
    scale = next(test for test in results["tests"] if test["name"] == "scale")
    assert scale["score"] == 1.0 and scale["max_score"] == 2.0
    assert "1/2 hidden cases passed" in scale["output"]


def test_feedback_shows_status_and_hints_but_no_hidden_data(graded):
    for name in ("feedback.md", "feedback.html", "results.json"):
        text = (graded.out / "bob" / name).read_text()
        assert "4242" not in text and "4243" not in text  # a hidden input and its expected output
        assert "scale" in text and "partial" in text or name == "results.json"
    assert "Add one." not in (graded.out / "alice" / "feedback.md").read_text()
    html = (graded.out / "bob" / "feedback.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html


def test_summary_has_one_row_per_submission(graded):
    rows = graded.summary()
    assert set(rows) == {"alice", "bob"}
    assert rows["alice"]["total"] == "4" and rows["bob"]["scale"] == "1" and rows["bob"]["max_total"] == "4"
    assert list(rows["alice"])[:4] == ["id", "add_one", "scale", "square_all"]
    assert rows["bob"]["status"] == "graded"


def test_a_rerun_skips_graded_submissions_unless_forced(graded):
    again = graded.run(graded.base / "subs")
    assert "2 submission(s), 0 to grade" in again.stdout
    forced = graded.run(graded.base / "subs", args=("--force",))
    assert "2 to grade" in forced.stdout


def test_a_changed_submission_is_graded_again(graded, toy):
    toy.submission(graded.base / "subs" / "bob.ipynb")
    again = graded.run(graded.base / "subs")
    assert "1 to grade" in again.stdout and graded.summary()["bob"]["total"] == "4"


def test_a_crash_mid_batch_loses_nothing_graded(graded, toy):
    (graded.out / "alice" / "results.json").unlink()
    (graded.out / "summary.csv").unlink()
    toy.submission(graded.base / "subs" / "carol.ipynb")
    again = graded.run(graded.base / "subs")
    assert "3 submission(s), 2 to grade" in again.stdout
    assert set(graded.summary()) == {"alice", "bob", "carol"}


def test_reference_outputs_are_cached_and_never_in_reports(graded):
    cached = list(graded.cache.glob("toy-*.json"))
    assert len(cached) == 1
    assert json.loads(cached[0].read_text())["assignment"] == "toy"


def test_a_batch_with_another_seed_reuses_the_reference_of_fixed_cases(graded):
    """The toy's cases are fixed: a batch in a new folder (so a new grading seed) finds its reference."""
    other = ("--out", str(graded.base / "other-out"), "--seed", "12345")  # the last --out is the one used
    again = graded.run(graded.base / "subs", args=other)
    assert again.returncode == 0, again.stderr
    assert len(list(graded.cache.glob("toy-*.json"))) == 1


def test_only_generated_cases_key_their_reference_by_the_seed():
    generated = load_assignment("c2w1")
    fixed = dataclasses.replace(generated, exercises=tuple(generated.for_seed(7).exercises))
    assert generated.generated and not fixed.generated
    assert _reference.reference_seed(generated, 7) == 7 and _reference.reference_seed(generated, 8) == 8
    assert _reference.reference_seed(fixed, 7) == _reference.reference_seed(fixed, 8)


def test_grader_runs_at_once_compute_a_reference_once(tmp_path, monkeypatch):
    """Two batches of one assignment started together (two TAs, two test workers): one computes, one waits."""
    computed = []

    def compute(assignment, limits, hidden):
        computed.append(assignment.name)
        time.sleep(0.5)  # long enough for the other run to find no file yet
        return {"add_one": [{"t": "array", "n": len(computed)}]}

    monkeypatch.setattr(_reference, "reference_key", lambda assignment, seed=0: "f" * 64)
    monkeypatch.setattr(_reference, "_compute", compute)
    results = []
    runs = [threading.Thread(target=lambda: results.append(_reference.load_or_compute(
        SimpleNamespace(name="toy"), None, tmp_path / "cache", ()))) for _ in range(2)]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    assert computed == ["toy"]
    assert [r.outputs for r in results] == [{"add_one": [{"t": "array", "n": 1}]}] * 2


def test_unknown_assignment_and_missing_paths_are_clear_errors(grader):
    done = grader.run(grader.base / "nowhere")
    assert done.returncode == 2 and "does not exist" in done.stderr
    grader.spec = "c9w9"
    done = grader.run(grader.base)
    assert done.returncode == 2 and "No assignment named 'c9w9'" in done.stderr and "c2w1" in done.stderr


@pytest.mark.parametrize("name", ["c2w3", "l4"])
def test_the_reference_runs_the_solution_up_to_its_last_graded_cell(name):
    """Training runs and plots after the last graded cell are the learner's, not the reference's."""
    from graders._notebook import code_cells, exercise_id, read_notebook

    assignment = load_assignment(name)
    notebook = read_notebook(assignment.solution)
    cells = _reference._through_last_graded_cell(notebook, assignment)
    every = code_cells(notebook)
    graded = [exercise_id(notebook["cells"][cell["index"]]) for cell in cells]
    assert cells == every[:len(cells)] and len(cells) < len(every)  # a prefix, and the solution goes on
    assert graded[-1] is not None and {e.id for e in assignment.exercises} <= set(graded)

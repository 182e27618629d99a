"""Submissions made from a course solution notebook: one graded cell's body replaced, heavy cells dropped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from graders._assignments import load_assignment
from graders._notebook import cell_source, exercise_id

ROOT = Path(__file__).resolve().parents[2]


def variant(solution: Path, path: Path, replace: dict[str, str] | None = None, stop_after: str | None = None,
            extra: tuple[str, ...] = ()) -> Path:
    """Write a copy of `solution` to `path` with the graded cells in `replace` (exercise -> source).

    With `stop_after`, cells after the first cell containing that text are dropped (the training
    loop and plots a submission does not need to be graded); `extra` cells are appended.
    """
    notebook = json.loads(solution.read_text())
    cells = []
    for cell in notebook["cells"]:
        exercise = exercise_id(cell)
        if exercise in (replace or {}):
            cell = {**cell, "source": textwrap.dedent(replace[exercise]).strip("\n") + "\n", "outputs": []}
        cells.append(cell)
        if stop_after and stop_after in cell_source(cell):
            break
    for source in extra:
        cells.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                      "source": textwrap.dedent(source)})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**notebook, "cells": cells}))
    return path


def reference_cache(base: Path) -> Path:
    """The session's shared reference-output cache (tests/conftest.py), else a folder under `base`."""
    shared = os.environ.get("COMPANION_TEST_REFERENCE_CACHE")
    return Path(shared) if shared else base / "cache"


def shared_references(base: Path) -> list[str]:
    """CLI options grading with the session's reference cache and grading seed (tests/conftest.py), so
    runs on the same assignment compute its reference once."""
    seed = os.environ.get("COMPANION_TEST_GRADING_SEED")
    return ["--cache", str(reference_cache(base)), *(["--seed", seed] if seed else [])]


def grade_with_cli(assignment: str, submissions: Path, base: Path, timeout: int = 1200, args: tuple = ()):
    """Grade every notebook in `submissions` in one `python -m graders` run (2 jobs); return
    `scores(id) -> {exercise: score}` reading each submission's results.json."""
    done = subprocess.run([sys.executable, "-m", "graders", assignment, str(submissions), "--out",
                           str(base / "out"), *shared_references(base), "--jobs", "2", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr

    def scores(name: str) -> dict[str, float]:
        results = json.loads((base / "out" / name / "results.json").read_text())
        return {test["name"]: test["score"] for test in results["tests"]}

    scores.out = base / "out"
    return scores


def grade_lab_variants(assignment: str, solution: Path, lab: Path, mistakes: dict[str, dict[str, str]],
                       base: Path, stop_after: str, timeout: int = 900):
    """Grade, in one CLI run, the whole solution ('honest'), the whole generated lab ('blank') and one
    submission per entry of `mistakes` (name -> {exercise: wrong source}) cut after `stop_after`;
    return `scores(name)` as `grade_with_cli` does."""
    subs = base / "subs"
    variant(solution, subs / "honest.ipynb")
    variant(lab, subs / "blank.ipynb")
    for name, replace in mistakes.items():
        variant(solution, subs / f"{name}.ipynb", replace, stop_after=stop_after)
    return grade_with_cli(assignment, subs, base, timeout=timeout)


def assert_solution_and_lab_graded(scores, assignment: str) -> None:
    """The whole solution ('honest' in the batch `scores` came from) scores full marks with no cell
    error or stop noted in its feedback, and the whole generated lab ('blank') scores 0 and is graded.
    (test_course_assignments.py checks this for the assignments without a batch of their own.)"""
    max_score = load_assignment(assignment).max_score
    honest, blank = (json.loads((scores.out / name / "results.json").read_text())
                     for name in ("honest", "blank"))
    # the whole feedback of what lost points: pytest would shorten the dicts
    lost = [f"{t['name']} ({t['score']}/{t['max_score']}): {t.get('output')}"
            for t in honest["tests"] if t["score"] != t["max_score"]]
    assert honest["score"] == honest["max_score"] == max_score, "\n".join([*lost, honest.get("output", "")])
    assert honest["extra_data"]["status"] == "graded", honest["output"]
    assert not [line for line in honest["output"].splitlines() if "raised an error" in line
                or line.startswith("The notebook stopped")], honest["output"]
    assert blank["score"] == 0 and blank["extra_data"]["status"] == "graded", blank["output"]

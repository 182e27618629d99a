"""Every registered assignment: its solution scores 100% and its generated lab 0, both cleanly."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graders._assignments import lab_path, load_assignment, registered
from tests.graders.course_submissions import shared_references

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.notebook]


@pytest.mark.parametrize("name", registered())
def test_the_solution_scores_full_marks_and_the_lab_zero(name, tmp_path):
    assignment = load_assignment(name)
    done = subprocess.run([sys.executable, "-m", "graders", name, str(assignment.solution),
                           str(lab_path(assignment)), "--out", str(tmp_path / "out"),
                           *shared_references(tmp_path), "--jobs", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    solution = json.loads((tmp_path / "out" / f"solutions__{_id(assignment)}" / "results.json").read_text())
    lab = json.loads((tmp_path / "out" / f"labs__{_id(assignment)}" / "results.json").read_text())
    # the whole feedback of what lost points: pytest would shorten the dicts
    lost = [f"{t['name']} ({t['score']}/{t['max_score']}): {t.get('output')}"
            for t in solution["tests"] if t["score"] != t["max_score"]]
    assert solution["score"] == solution["max_score"] == assignment.max_score, "\n".join(
        [*lost, solution.get("output", "")])
    assert lab["score"] == 0 and lab["extra_data"]["status"] == "graded", lab["output"]


def _id(assignment) -> str:
    relative = assignment.solution.relative_to(ROOT / "solutions")
    return "__".join([*relative.parent.parts, relative.stem])

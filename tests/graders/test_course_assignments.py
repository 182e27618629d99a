"""Every registered assignment: its solution scores 100% and its generated lab 0, both cleanly.

An assignment with a batch of typical mistakes of its own (tests/graders/test_<name>.py) grades its
whole solution and lab in that batch and checks this there (`assert_solution_and_lab_graded`), so
each is graded once per run; the others are graded here."""

from pathlib import Path

import pytest

from graders._assignments import lab_path, load_assignment, registered
from tests.graders.course_submissions import assert_solution_and_lab_graded, grade_with_cli, variant

pytestmark = [pytest.mark.slow, pytest.mark.notebook]


# batches without the whole solution and lab (c2w4's bounds an XLA CPU collective stall at 150 s,
# too short for the whole solution's training on a loaded machine)
CUT_BATCHES = {"c2w4"}
HERE = [name for name in registered()
        if name in CUT_BATCHES or not (Path(__file__).with_name(f"test_{name}.py")).exists()]


def test_the_assignments_graded_in_a_batch_of_their_own_check_it_there():
    for name in set(registered()) - set(HERE):
        batch = Path(__file__).with_name(f"test_{name}.py").read_text()
        assert f'assert_solution_and_lab_graded(graded, "{name}")' in batch, name


@pytest.mark.parametrize("name", HERE)
def test_the_solution_scores_full_marks_and_the_lab_zero(name, tmp_path):
    assignment = load_assignment(name)
    subs = tmp_path / "subs"
    variant(assignment.solution, subs / "honest.ipynb")
    variant(lab_path(assignment), subs / "blank.ipynb")
    assert_solution_and_lab_graded(grade_with_cli(name, subs, tmp_path, timeout=600), name)

"""Lecture lab L2 (XLA): public checks in the kernel; the grader on the solution, the lab and a mistake."""

import re

import pytest

from graders import l2
from graders._hidden.l2 import ASSIGNMENT
from graders._public import CheckFailed
from graders.harnesses.l2 import count_fusions as harness
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_with_cli, variant

SOLUTION = ROOT / "solutions" / "lectures" / "L2_xla.ipynb"
LAB = ROOT / "labs" / "lectures" / "L2_xla.ipynb"
LAST_CHECK = 'check("count_fusions"'


def count_fusions(function, *args):
    optimized = function.experimental_get_compiler_ir(*args)(stage="optimized_hlo")
    entry = optimized.split("\nENTRY ")[1]
    return len([line for line in entry.splitlines() if re.search(r"\sfusion\(", line)])


def counts_the_word(function, *args):  # also counts fused computations' and instructions' names
    return function.experimental_get_compiler_ir(*args)(stage="optimized_hlo").count("fusion")


def counts_before_optimisation(function, *args):  # 'hlo' has no fusions yet
    return function.experimental_get_compiler_ir(*args)(stage="hlo").count(" fusion(")


def test_correct_code_passes_the_public_checks(capsys):
    l2.check("count_fusions", count_fusions)
    assert "all 2 public tests passed" in capsys.readouterr().out


@pytest.mark.parametrize("mistake", [counts_the_word, counts_before_optimisation])
def test_each_mistake_fails_with_the_fusion_hint(mistake):
    with pytest.raises(CheckFailed, match="ENTRY computation"):
        l2.check("count_fusions", mistake)


def test_every_hidden_program_has_its_own_fusion_count_so_a_constant_passes_at_most_one():
    counts = [harness(count_fusions, *case.args)["fusions"] for case in ASSIGNMENT.exercises[0].cases]
    assert len(set(counts)) == len(counts), counts


MISTAKES = {"counts_the_word": {"count_fusions": '''
import re
# GRADED FUNCTION: count_fusions
def count_fusions(function, *args):
    return function.experimental_get_compiler_ir(*args)(stage="optimized_hlo").count("fusion")
'''}, "returns_one": {"count_fusions": '''
# GRADED FUNCTION: count_fusions
def count_fusions(function, *args):
    return 1  # the count of the public checks' first program
'''}}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The whole solution and lab, and one mistake (cut after its check), graded in one CLI run."""
    base = tmp_path_factory.mktemp("l2")
    subs = base / "subs"
    variant(SOLUTION, subs / "honest.ipynb")
    variant(LAB, subs / "blank.ipynb")
    for name, replace in MISTAKES.items():
        variant(SOLUTION, subs / f"{name}.ipynb", replace, stop_after=LAST_CHECK)
    return grade_with_cli("l2", subs, base, timeout=600)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "l2")


@pytest.mark.slow
@pytest.mark.notebook
def test_counting_the_word_earns_nothing(graded):
    assert graded("counts_the_word")["count_fusions"] == 0


@pytest.mark.slow
@pytest.mark.notebook
def test_a_constant_answer_passes_at_most_one_hidden_case(graded):
    exercise = ASSIGNMENT.exercises[0]
    assert graded("returns_one")["count_fusions"] <= exercise.weight / len(exercise.cases)

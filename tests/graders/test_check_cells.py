"""Check cells in a real kernel: a broken answer is reported as the learner's line, never the grader's frames.

The cells of the Week 1 lab run in a fresh Jupyter kernel (nbclient), with one graded cell replaced
by a broken answer, as a learner would write it. The error output the learner sees must name the
check, the exception, the cell and line of their own code and a hint, and show no frame of the
grader, the harness or companion.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[2]
LAB = ROOT / "labs" / "week1" / "C2W1_Assignment.ipynb"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

BROKEN_TAPE = '''# GRADED FUNCTION: tf_gradient_tape
def tf_gradient_tape(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = 3 * x**3 - 2 * x**2 + x
        z = tf.reduce_sum(y)

    dz_dx = t.gradient(z, w)  # a typo: w is not defined
    return dz_dx
'''

BROKEN_RESHAPE = '''# GRADED FUNCTION: tf_reshape
def tf_reshape(array, shape):
    reshaped = tf.reshape(array, (2, 5))  # ignores `shape`: 9 values do not fit 2 x 5
    return reshaped
'''


def _run_lab_cells(replacements: dict[str, str]) -> list[dict]:
    """Run the lab's import cell, the replaced graded cells and their check cells; return the cells."""
    lab = nbformat.read(LAB, as_version=4)
    cells = [lab.cells[_index(lab, "c2w1-03")]]
    for exercise, source in replacements.items():
        graded = next(i for i, cell in enumerate(lab.cells)
                      if cell.metadata.get("companion", {}).get("exercise") == exercise)
        cell = lab.cells[graded]
        cell.source = source
        cells += [cell, lab.cells[graded + 1]]
    lab.cells = cells
    nbclient.NotebookClient(lab, kernel_name="python3", timeout=120, allow_errors=True,
                            resources={"metadata": {"path": str(LAB.parent)}},
                            extra_arguments=["--log-level=ERROR"]).execute()
    return lab.cells


def _index(notebook, cell_id: str) -> int:
    return next(i for i, cell in enumerate(notebook.cells) if cell.get("id") == cell_id)


def _error(cell) -> dict:
    errors = [output for output in cell.outputs if output.output_type == "error"]
    assert len(errors) == 1, f"expected one error output, got {json.dumps(cell.outputs)[:500]}"
    return errors[0]


@pytest.mark.slow
@pytest.mark.notebook
def test_a_check_cell_reports_the_learners_failing_line_and_no_grader_frames():
    cells = _run_lab_cells({"tf_gradient_tape": BROKEN_TAPE, "tf_reshape": BROKEN_RESHAPE})
    assert not [output for output in cells[0].outputs if output.output_type == "error"]

    tape_error, reshape_error = _error(cells[2]), _error(cells[4])
    for error, exercise, exception, line in (
            (tape_error, "tf_gradient_tape", "NameError: name 'w' is not defined",
             "dz_dx = t.gradient(z, w)  # a typo: w is not defined"),
            (reshape_error, "tf_reshape", "InvalidArgumentError",
             "reshaped = tf.reshape(array, (2, 5))  # ignores `shape`: 9 values do not fit 2 x 5")):
        shown = ANSI.sub("", "\n".join(error.traceback))
        assert error.ename == "CheckFailed"
        assert shown.startswith(f"CheckFailed: {exercise}: public test 1 of 3 failed: the function raised "
                                f"{exception}"), shown
        where = rf"where:    Cell In\[\d+\], line \d+, in {exercise}\n\s+{re.escape(line)}"
        assert re.search(where, shown), shown
        assert "Hint: " in shown and "expected: " in shown and "call:     " in shown
        for internal in ("graders/", "_public.py", "harnesses", "companion/", "site-packages", "Traceback"):
            assert internal not in shown, f"{internal!r} shown to the learner:\n{shown}"
    # the example call after the check does not run: the check stopped the cell first
    assert not [output for output in cells[4].outputs if output.output_type == "stream"]


@pytest.mark.slow
@pytest.mark.notebook
def test_the_blank_lab_cell_fails_at_its_check_with_a_hint():
    lab = nbformat.read(LAB, as_version=4)
    blank = lab.cells[_index(lab, "c2w1-05")].source
    cells = _run_lab_cells({"tf_constant": blank})
    error = _error(cells[2])
    shown = ANSI.sub("", "\n".join(error.traceback))
    assert error.ename == "CheckFailed"
    assert shown.startswith("CheckFailed: tf_constant: public test 1 of 3 failed: it returned None."), shown
    assert "placeholder" in shown and "Traceback" not in shown

"""Public checks of every assignment: no oracle shipped, outputs from the solution, disjoint cases."""

import ast
import importlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

from graders._assignments import load_assignment, registered
from graders._codec import text_to_array
from graders._compare import difference
from graders._expected import public_checks, stale_expected, write_expected
from graders._inputs import encode_input

WITH_CHECKS = [name for name in registered() if public_checks(name) is not None]


def test_every_registered_assignment_has_public_checks():
    assert WITH_CHECKS == registered()


def test_stored_expected_outputs_match_the_public_cases():
    assert stale_expected() == []


@pytest.mark.parametrize("name", WITH_CHECKS)
def test_a_public_check_module_defines_no_function(name):
    """Inputs, hints and a harness name only: nothing that could compute an answer for any input."""
    tree = ast.parse(Path(importlib.import_module(f"graders.{name}").__file__).read_text())
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.Lambda)]


def _arrays(node):
    """Every array of at least 3 elements inside an encoded input."""
    if node.get("t") in ("array", "tensor"):
        array = text_to_array(node["npy"])
        return [array] if array.size >= 3 else []
    return [array for item in node.get("items", []) for array in _arrays(item)]


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 7])
@pytest.mark.parametrize("name", WITH_CHECKS)
def test_hidden_inputs_are_disjoint_from_public_ones(name, seed):
    """A submission that records the public cases' answers learns nothing about the hidden ones."""
    public = public_checks(name)
    assignment = load_assignment(name).for_seed(seed)
    for exercise in assignment.exercises:
        shown_cases = [[encode_input(arg) for arg in public_case.case.args]
                       for public_case in public.exercises[exercise.id].cases]
        shown_arrays = [array for case in shown_cases for node in case for array in _arrays(node)]
        for case in exercise.cases:
            encoded = [encode_input(arg) for arg in case.args]
            assert json.dumps(encoded) not in {json.dumps(shown) for shown in shown_cases}
            for array in (array for node in encoded for array in _arrays(node)):
                assert not any(array.shape == other.shape and np.array_equal(array, other)
                               for other in shown_arrays), f"{exercise.id}: a hidden array is public"


@pytest.mark.parametrize("name", WITH_CHECKS)
def test_the_solution_notebook_shows_every_public_check_passing(name):
    """Each public exercise's check cell in the solution notebook shows all its public cases passing.

    nbval (test_nbval.py) re-runs every solution notebook and compares each cell's output with the
    stored one, and a check compares the solution's outputs with the stored expected ones under the
    exercise's rule: together they prove the stored expected outputs are what the solution produces,
    without running each solution notebook once more here."""
    checks = public_checks(name)
    notebook = json.loads(load_assignment(name).solution.read_text())
    shown = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        text = "".join("".join(output.get("text", "")) for output in cell.get("outputs", []))
        for found in re.finditer(r"^(\w+): all (\d+) public tests passed$", text, re.MULTILINE):
            if re.search(rf"\bcheck\(\s*[\"']{found[1]}[\"']", "".join(cell["source"])):
                shown[found[1]] = int(found[2])
    assert shown == {exercise: len(spec.cases) for exercise, spec in checks.exercises.items()}


@pytest.mark.slow
@pytest.mark.notebook
@pytest.mark.parametrize("name", ["c2w1"])  # the others: the test above with nbval
def test_stored_expected_outputs_are_what_the_solution_produces(name, tmp_path):
    fresh = json.loads(write_expected(name, directory=tmp_path).read_text())["expected"]
    stored = json.loads(public_checks(name).expected_path.read_text())["expected"]
    assert fresh.keys() == stored.keys()
    for exercise, spec in public_checks(name).exercises.items():
        for want, got in zip(stored[exercise], fresh[exercise]):
            assert difference(want, got, spec.rule) is None, exercise


@pytest.mark.parametrize("name", [name for name in WITH_CHECKS if load_assignment(name).generated])
def test_generated_hidden_cases_change_with_the_seed_and_repeat_with_it(name):
    def encoded(seed):
        cases = load_assignment(name).for_seed(seed).exercises
        return json.dumps([[encode_input(arg) for case in e.cases for arg in case.args] for e in cases])

    assert encoded(11) == encoded(11)
    assert encoded(11) != encoded(12)


def test_warnings_logged_while_a_public_case_runs_do_not_reach_the_notebook(caplog):
    """The harness's own calls (an eager `strategy.run` of the learner's step) made TF's eager-overhead
    warning appear under the check cell; the "tensorflow" logger is muted below ERROR meanwhile."""
    import logging

    import companion as tf
    from graders._public import CheckFailed

    logger = tf.get_logger()
    level = logger.level

    def tf_constant(*args):
        logger.warning("from inside a public case")
        logger.error("an error still shows")
        return None

    caplog.set_level(logging.WARNING, logger="tensorflow")
    with pytest.raises(CheckFailed):
        public_checks("c2w1").check("tf_constant", tf_constant)
    assert [r.getMessage() for r in caplog.records] == ["an error still shows"]  # the first case failed
    logger.warning("after the check")
    assert caplog.records[-1].getMessage() == "after the check"
    caplog.set_level(level, logger="tensorflow")

"""Fixtures for the grader tests: a small numpy-only assignment, notebook writers and a CLI runner."""

import csv
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]

SPEC = '''
from pathlib import Path

import numpy as np

from graders._spec import Assignment, Exercise, case

ASSIGNMENT = Assignment(name="toy", solution=Path("solution.ipynb"), exercises=(
    Exercise("add_one", cases=(case(np.array([4242.125, 1.0])), case(np.arange(3))), hint="Add one."),
    Exercise("scale", cases=(case(np.array([1.5, 2.0]), 3.0), case(np.arange(4), 2)), weight=2.0),
    Exercise("square_all", cases=(case(np.array([[1, 2], [3, 4]])),), hint="Square it."),
))
'''

BODIES = {
    "add_one": ("array", "result = np.asarray(array) + 1"),
    "scale": ("array, factor", "result = np.asarray(array) * factor"),
    "square_all": ("array", "result = np.square(array)"),
}


def graded_source(name: str, body: str | None = None, function: str | None = None) -> str:
    """A graded cell defining `function` (default `name`) whose region holds `body`."""
    arguments, solution = BODIES[name]
    body = textwrap.indent(textwrap.dedent(body if body is not None else solution), "    ")
    return (f"def {function or name}({arguments}):\n    ### START CODE HERE ###\n{body.rstrip()}\n"
            "    ### END CODE HERE ###\n    return result\n")


def notebook(path: Path, cells: list) -> Path:
    """Write a notebook: each item is a source string or a (source, exercise id, tags) triple."""
    nb_cells = []
    for item in cells:
        source, exercise, tags = (item, None, None) if isinstance(item, str) else item
        metadata = {"tags": tags if tags is not None else ["graded"]} if exercise else {}
        if exercise:
            metadata["companion"] = {"exercise": exercise}
        nb_cells.append({"cell_type": "code", "execution_count": None, "metadata": metadata, "outputs": [],
                         "source": source})
    document = {"cells": nb_cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def submission(path: Path, bodies: dict | None = None, prelude: str = "", extra: tuple = (),
               skip: tuple = ()) -> Path:
    """The toy solution with some exercise bodies replaced, optional cells before and after."""
    bodies = bodies or {}
    cells = ["import numpy as np\n" + textwrap.dedent(prelude)]
    cells += [(graded_source(name, bodies.get(name)), name, None) for name in BODIES if name not in skip]
    return notebook(path, [*cells, *[textwrap.dedent(cell) for cell in extra]])


class Grader:
    """Runs `python -m graders` on the toy assignment and reads its reports."""

    def __init__(self, base: Path):
        self.base, self.spec = base, base / "spec" / "toy.py"
        self.out, self.cache = base / "out", base / "cache"
        self.spec.parent.mkdir()
        self.spec.write_text(SPEC)
        submission(self.spec.parent / "solution.ipynb")

    def run(self, *paths, args=(), timeout=300, env=None) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "graders", str(self.spec), *map(str, paths), "--out", str(self.out),
                   "--cache", str(self.cache), "--timeout", "20", "--exercise-timeout", "5", *args]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                              env=None if env is None else {**os.environ, **env})

    def summary(self) -> dict[str, dict]:
        with open(self.out / "summary.csv", newline="") as file:
            return {row["id"]: row for row in csv.DictReader(file)}

    def results(self, submission_id: str) -> dict:
        return json.loads((self.out / submission_id / "results.json").read_text())

    def scores(self, submission_id: str) -> dict[str, float]:
        return {test["name"]: test["score"] for test in self.results(submission_id)["tests"]}

    def output(self, submission_id: str, exercise: str) -> str:
        return next(t["output"] for t in self.results(submission_id)["tests"] if t["name"] == exercise)


@pytest.fixture
def grader(tmp_path):
    """A toy assignment in tmp_path and a runner for the grading CLI."""
    return Grader(tmp_path)


@pytest.fixture(scope="session")
def toy():
    """Notebook writers for the toy assignment, its Grader class and full marks per exercise."""
    return SimpleNamespace(submission=submission, notebook=notebook, graded_source=graded_source,
                           Grader=Grader, full={"add_one": 1.0, "scale": 2.0, "square_all": 1.0})

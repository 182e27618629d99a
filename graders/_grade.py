"""Grading one submission: read it, check its structure, run it in the sandbox, compare, score."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from graders._errors import NotebookFormatError
from graders._inputs import encode_exercise
from graders._limits import Limits
from graders._notebook import code_cells, read_notebook, read_submission
from graders._reference import Reference
from graders._refusals import explanation
from graders._result import SubmissionResult
from graders._runner import run_notebook
from graders._sandbox import sandbox_mode
from graders._spec import Assignment
from graders._structure import structure_problems
from graders._verdict import exercise_result


def grade_submission(path: Path, submission_id: str, assignment: Assignment, reference: Reference,
                     limits: Limits, hidden: tuple[Path, ...], pool=None) -> SubmissionResult:
    """The graded result of the notebook at `path` (never raises for a bad submission).

    `pool`: a warm `_pool.ForkServer` to fork the child from (else a fresh process is started)."""
    start = time.monotonic()
    result = SubmissionResult(submission_id, path, assignment.name, [], "graded",
                              fingerprint=fingerprint(path, reference), sandbox=sandbox_mode())
    try:
        notebook = read_notebook(path)
    except NotebookFormatError as error:
        result.status = "invalid notebook"
        result.exercises = [exercise_result(e, None, [], problem=str(error)) for e in assignment.exercises]
        result.seconds = time.monotonic() - start
        return result
    _grade_notebook(notebook, assignment, reference, limits, hidden, result, pool)
    result.seconds = time.monotonic() - start
    return result


def _grade_notebook(notebook: dict, assignment: Assignment, reference: Reference, limits: Limits,
                    hidden: tuple[Path, ...], result: SubmissionResult, pool=None) -> None:
    problems, result.notes = structure_problems(notebook, assignment)
    runnable = [encode_exercise(e) for e in assignment.exercises if e.id not in problems]
    run = run_notebook(code_cells(notebook), runnable, limits, hidden, pool)
    result.exercises = [
        exercise_result(ex, run.exercises.get(ex.id), reference.outputs[ex.id], problems.get(ex.id))
        for ex in assignment.exercises]
    result.notes += [f"Cell {error['index']} raised an error: {error['error']}" + explanation(error["error"])
                     for error in run.cell_errors]
    result.log, result.phases = run.log, run.phases
    if run.stopped:
        result.status = "stopped"
        result.notes.append(f"The notebook stopped {run.stopped}.")


def fingerprint(path: Path, reference: Reference) -> str:
    """What a result depends on: the submission's bytes and the reference key (to skip re-grading)."""
    try:
        content = read_submission(path)
    except NotebookFormatError:
        content = b""
    return hashlib.sha256(content + reference.key.encode()).hexdigest()

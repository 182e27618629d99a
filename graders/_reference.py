"""Reference outputs: the solution notebook's graded functions run on the hidden inputs, cached on disk.

They are computed in the same kind of sandboxed child as a submission and cached per assignment
under a key hashing the solution notebook, the hidden spec and the data format, in a folder the
sandbox hides from every child.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from graders._assignments import ROOT
from graders._atomic import write_atomic
from graders._errors import ReferenceOutputsError
from graders._inputs import encode_exercise
from graders._limits import Limits
from graders._notebook import code_cells, exercise_id, read_notebook
from graders._runner import run_notebook
from graders._spec import Assignment

FORMAT = "companion-reference-1"


@dataclass(frozen=True)
class Reference:
    """The expected output nodes per exercise id, one per hidden case, and the cache key they belong to."""

    key: str
    outputs: dict[str, list[dict]]


def default_cache_dir() -> Path:
    """$COMPANION_GRADER_CACHE, else build/grader-cache in the repository."""
    return Path(os.environ.get("COMPANION_GRADER_CACHE") or ROOT / "build" / "grader-cache").resolve()


def reference_key(assignment: Assignment, seed: int = 0) -> str:
    """SHA-256 of the solution notebook, the spec file, the grading seed and the format version."""
    digest = hashlib.sha256(f"{FORMAT}:{seed}".encode())
    for path in (assignment.solution, assignment.source):
        digest.update(_read(path, "solution notebook" if path == assignment.solution else "hidden spec"))
    return digest.hexdigest()


def reference_seed(assignment: Assignment, seed: int) -> int:
    """The seed a batch's reference is keyed by: its grading seed, or 0 when no case is generated
    (fixed cases do not change with the seed, so every batch shares their reference)."""
    return seed if assignment.generated else 0


def load_or_compute(assignment: Assignment, limits: Limits, cache_dir: Path,
                    hidden: tuple[Path, ...], seed: int = 0) -> Reference:
    """The cached reference outputs, computing and storing them first when the cache has none.

    `assignment` has its cases made for `seed` already (`Assignment.for_seed`).
    """
    key = reference_key(assignment, seed)
    path = cache_dir / f"{assignment.name}-{key[:20]}.json"
    if (cached := _cached(path, key)) is not None:
        return cached
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # several grader runs at once compute a reference once
        if (cached := _cached(path, key)) is not None:
            return cached
        outputs = _compute(assignment, limits, hidden)
        write_atomic(path, json.dumps({"key": key, "assignment": assignment.name, "outputs": outputs}))
    return Reference(key, outputs)


def _cached(path: Path, key: str) -> Reference | None:
    """The reference stored at `path` for `key`, or None when there is none (or another key's)."""
    if not path.is_file():
        return None
    cached = json.loads(path.read_text())
    return Reference(key, cached["outputs"]) if cached.get("key") == key else None


def _compute(assignment: Assignment, limits: Limits, hidden: tuple[Path, ...]) -> dict[str, list[dict]]:
    cells = _through_last_graded_cell(read_notebook(assignment.solution), assignment)
    exercises = [encode_exercise(e) for e in assignment.exercises]
    run = run_notebook(cells, exercises, limits, hidden)
    if run.stopped:  # the trusted solution's process died or stalled (e.g. an XLA CPU collective that
        run = run_notebook(cells, exercises, limits, hidden)  # hung on a loaded machine): once more
    problems = [_problem(exercise.id, run) for exercise in assignment.exercises]
    problems = [problem for problem in problems if problem]
    if problems:
        raise ReferenceOutputsError(
            f"The solution notebook {assignment.solution} did not produce reference outputs for "
            f"assignment {assignment.name!r}:\n  " + "\n  ".join(problems) +
            "\nFix the solution notebook or the hidden cases. Its output was:\n" + run.log[-4000:])
    return {exercise.id: run.exercises[exercise.id].outputs for exercise in assignment.exercises}


def _through_last_graded_cell(notebook: dict, assignment: Assignment) -> list[dict]:
    """The solution's code cells up to its last graded cell: what comes after (a final training run,
    plots) defines nothing the graded functions use, so the reference does not wait for it. (A
    submission still runs whole; the tests grading each whole solution at full marks would catch a
    solution whose graded code needed a later cell.)"""
    ids = {exercise.id for exercise in assignment.exercises}
    cells = code_cells(notebook)
    last = max((cell["index"] for cell in cells if exercise_id(notebook["cells"][cell["index"]]) in ids),
               default=None)
    return cells if last is None else [cell for cell in cells if cell["index"] <= last]


def _problem(exercise_id: str, run) -> str | None:
    result = run.exercises[exercise_id]
    if result.status != "ran":
        return f"{exercise_id}: {result.status} {result.reason}".rstrip()
    errors = [f"case {n}: {o.get('message') or o.get('type')}" for n, o in enumerate(result.outputs, 1)
              if o.get("t") in ("error", "object", "unreadable")]
    return f"{exercise_id}: " + "; ".join(errors) if errors else None


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise ReferenceOutputsError(f"Cannot read the {what} {path}: {error}. Expected the file named by the "
                                    "assignment's spec; build or restore it first.") from None

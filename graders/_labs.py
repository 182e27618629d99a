"""Building labs/ from solutions/: regions blanked, outputs cleared, metadata normalised, bytes stable."""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path

from graders._atomic import write_atomic
from graders._clean import KERNELSPEC, clean_notebook
from graders._errors import NotebookFormatError
from graders._notebook import cell_source, exercise_id, read_notebook
from graders._regions import blank_regions, has_regions

CELL_KEYS = ("tags", "companion")


def lab_notebook(solution: dict, name: str = "notebook") -> dict:
    """The student version of a solution notebook (a new dict; the input is not changed)."""
    cells = [_lab_cell(cell, index, name) for index, cell in enumerate(solution["cells"])]
    # The solution's language_info is what the kernel reported when it last ran: JupyterLab rewrites
    # a notebook's language_info when its kernel starts, so a lab that has the kernel's opens unmodified.
    language = solution.get("metadata", {}).get("language_info")
    language = language if isinstance(language, dict) else {"name": "python"}
    metadata = {"kernelspec": KERNELSPEC, "language_info": language}
    if isinstance(solution.get("metadata", {}).get("companion"), dict):
        metadata["companion"] = solution["metadata"]["companion"]
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def _lab_cell(cell: dict, index: int, name: str) -> dict:
    source = cell_source(cell)
    if cell.get("cell_type") == "code" and exercise_id(cell) and not has_regions(source):
        raise NotebookFormatError(f"{name}: graded cell {index} has no `### START CODE HERE ###` region. "
                                  "Expected the learner's part of every graded cell between the markers.")
    try:
        source = blank_regions(source) if cell.get("cell_type") == "code" else source
    except NotebookFormatError as error:
        raise NotebookFormatError(f"{name}, cell {index}: {error}") from None
    metadata = {key: cell["metadata"][key] for key in CELL_KEYS if key in cell.get("metadata", {})}
    lab = {"cell_type": cell.get("cell_type", "code"), "id": _cell_id(cell, index), "metadata": metadata,
           "source": source}
    if lab["cell_type"] == "code":
        lab.update(execution_count=None, outputs=[])
    elif "attachments" in cell:
        lab["attachments"] = cell["attachments"]
    return lab


def _cell_id(cell: dict, index: int) -> str:
    """The solution cell's id, or one derived from its position and source (stable across builds)."""
    if isinstance(cell.get("id"), str) and cell["id"]:
        return cell["id"]
    return hashlib.sha256(f"{index}:{cell_source(cell)}".encode()).hexdigest()[:8]


def lab_text(lab: dict) -> str:
    """The notebook as JSON text, as nbformat writes it (sorted keys, one-space indent)."""
    return json.dumps(lab, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def plan(solutions: Path, labs: Path) -> dict[Path, str | None]:
    """Every lab path -> the text it must have; None for a stale lab with no solution."""
    wanted: dict[Path, str | None] = {}
    for solution in sorted(solutions.rglob("*.ipynb")):
        if ".ipynb_checkpoints" not in solution.parts:
            relative = solution.relative_to(solutions)
            wanted[labs / relative] = lab_text(lab_notebook(read_notebook(solution), str(relative)))
    for existing in sorted(labs.rglob("*.ipynb")) if labs.is_dir() else []:
        if ".ipynb_checkpoints" not in existing.parts:
            wanted.setdefault(existing, None)
    return wanted


def out_of_sync(solutions: Path, labs: Path) -> list[Path]:
    """Labs that differ from what the build would write (or should not exist), and unclean solutions."""
    unclean = [path for path, text in clean_plan(solutions).items() if _current(path) != text]
    return unclean + [path for path, text in plan(solutions, labs).items() if _current(path) != text]


def clean_plan(solutions: Path) -> dict[Path, str]:
    """Every solution notebook -> its text in the form that opens clean (graders._clean)."""
    return {solution: lab_text(clean_notebook(read_notebook(solution)))
            for solution in sorted(solutions.rglob("*.ipynb")) if ".ipynb_checkpoints" not in solution.parts}


def build(solutions: Path, labs: Path, backups: Path | None = None) -> list[Path]:
    """Clean the solutions that would not open clean, write every out-of-sync lab, delete stale ones.

    Returns the paths changed (solutions first).

    A lab about to be replaced or deleted that someone ran or edited by hand (it has outputs or
    execution counts, which the build never writes) is first copied to `backups` (default
    `build/lab-backups/<time>/`), so no learner's answers are lost; `last_backups` lists them.
    """
    changed, backups = [], backups or labs.parent / "build" / "lab-backups" / time.strftime("%Y%m%d-%H%M%S")
    last_backups.clear()
    for path, text in clean_plan(solutions).items():
        if _current(path) != text:
            write_atomic(path, text)  # same cells and outputs, in the form that opens clean
            changed.append(path)
    for path, text in plan(solutions, labs).items():
        current = _current(path)
        if current == text:
            continue
        if current is not None and _was_run_or_edited(current):
            copy = backups / path.relative_to(labs)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, copy)
            last_backups.append(copy)
        path.unlink() if text is None else write_atomic(path, text)
        changed.append(path)
    return changed


last_backups: list[Path] = []


def _was_run_or_edited(text: str) -> bool:
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return True
    return any(isinstance(cell, dict) and (cell.get("outputs") or cell.get("execution_count") is not None)
               for cell in cells)


def _current(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None

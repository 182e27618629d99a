"""Finding an assignment's hidden specification: by name in graders/_hidden, or by a spec file's path."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import pkgutil
from pathlib import Path

from graders._errors import SpecError, UnknownAssignmentError
from graders._spec import Assignment

ROOT = Path(__file__).resolve().parents[1]
HIDDEN = Path(__file__).resolve().with_name("_hidden")
SOLUTIONS = ROOT / "solutions"
LABS = ROOT / "labs"


def registered() -> list[str]:
    """Names of the assignments defined in graders/_hidden."""
    modules = pkgutil.iter_modules([str(HIDDEN)])
    return sorted(module.name for module in modules if not module.name.startswith("_"))


def load_assignment(name_or_path: str) -> Assignment:
    """The assignment `c2w1` (graders/_hidden/c2w1.py) or the one defined in a `*.py` spec file."""
    if name_or_path.endswith(".py"):
        path = Path(name_or_path).resolve()
        return _resolved(_module_from_file(path), path, base=path.parent)
    if name_or_path not in registered():
        known = ", ".join(registered()) or "(none)"
        raise UnknownAssignmentError(f"No assignment named {name_or_path!r}. Expected one of: {known}, "
                                     "or the path of a spec file (*.py).")
    module = importlib.import_module(f"graders._hidden.{name_or_path}")
    return _resolved(module, Path(module.__file__), base=ROOT)


def lab_path(assignment: Assignment) -> Path:
    """Where the build puts the student version of the assignment's solution notebook."""
    return LABS / assignment.solution.relative_to(SOLUTIONS)


def _module_from_file(path: Path):
    if not path.is_file():
        raise UnknownAssignmentError(f"Spec file {path} does not exist. "
                                     "Expected a Python file defining ASSIGNMENT.")
    spec = importlib.util.spec_from_file_location(f"_companion_spec_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _resolved(module, source: Path, base: Path) -> Assignment:
    assignment = getattr(module, "ASSIGNMENT", None)
    if not isinstance(assignment, Assignment):
        raise SpecError(f"{source} must define ASSIGNMENT = Assignment(...). "
                        f"Received: {type(assignment).__name__}")
    return dataclasses.replace(assignment, solution=(base / assignment.solution).resolve(), source=source)

"""Public checks: an assignment's visible cases, run in the learner's kernel against stored expected outputs.

A public check module (`graders/c2w1.py`, ...) declares, per exercise, a few visible cases, an
optional harness, a comparison rule and hints. The expected outputs are not computed here: they
were produced by the solution notebook (`companion-labs refresh` runs it on the public cases in
the grader's sandbox) and stored in `graders/expected/<assignment>.json`. So a check module ships
no function that could solve an arbitrary input, only the public inputs and what they must give.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import linecache
import logging
import sys
import sysconfig
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from graders._codec import DecodeError, children, keys, scalar, text_to_array
from graders._compare import Difference, difference, type_name
from graders._inputs import encode_input
from graders._spec import Case, Rule
from graders._values import decode_input, encode_output

EXPECTED_DIR = Path(__file__).resolve().with_name("expected")
FORMAT = "companion-public-1"

GENERIC_HINTS = {
    "raised": "Read the message, then the line of your code shown under `where`: that is where it failed.",
    "none": "None means a `None  # YOUR CODE HERE` placeholder is still in place, or the function returns "
            "nothing: replace every placeholder and keep the `return` line.",
    "type": "Return the kind of object shown under `expected`.",
    "dtype": "Don't cast: keep the dtype shown under `expected`.",
    "shape": "The result should have the shape shown under `expected`.",
    "value": "Compare your values with `expected` element by element.",
    "length": "Return as many items as shown under `expected`.",
    "fields": "Keep the code outside the START/END CODE HERE markers as the lab gives it.",
}


class _ShownPlainly:
    """In IPython, an error shown as its message alone: no traceback through the checker's frames.

    IPython calls `_render_traceback_` instead of formatting a traceback, so a learner sees the
    verdict (which already names the line of their code that failed), not the grader's internals.
    Outside IPython (pytest, scripts) the exception is an ordinary one, chained to its cause.
    """

    def _render_traceback_(self) -> list[str]:
        first, *rest = str(self).splitlines() or [""]
        return [f"\x1b[31m{type(self).__name__}\x1b[39m: {first}", *rest]


class CheckFailed(_ShownPlainly, AssertionError):
    """A public case failed: the message says which, what was expected and got, where, and a hint."""


class CheckUsageError(_ShownPlainly, ValueError):
    """`check` was called with a name that is not an exercise of the assignment."""


class CheckArgumentError(_ShownPlainly, TypeError):
    """`check` was given something other than the learner's function or class."""


@dataclass(frozen=True)
class PublicCase:
    """One visible case: how the call reads in a message (`call`) and its arguments."""

    call: str
    case: Case


@dataclass(frozen=True)
class PublicExercise:
    """The visible side of a graded exercise: cases, harness, rule and hints by difference kind.

    `hints` maps "FIELD:KIND", "FIELD" or "KIND" (kinds as in `graders._compare.Difference`) to a
    hint that explains the likely mistake without giving the answer.
    """

    id: str
    cases: tuple[PublicCase, ...]
    harness: str | None = None
    rule: Rule = Rule()
    hints: dict[str, str] = field(default_factory=dict)

    def hint(self, found: Difference) -> str:
        for key in (f"{found.field}:{found.kind}", found.field, found.kind):
            if key and key in self.hints:
                return self.hints[key]
        return GENERIC_HINTS.get(found.kind, GENERIC_HINTS["value"])

    def encoded_cases(self) -> list[list[dict]]:
        return [[encode_input(arg) for arg in public.case.args] for public in self.cases]


class PublicChecks:
    """The checks of one assignment; `check(exercise, obj)` is what notebooks call."""

    def __init__(self, assignment: str, exercises: tuple[PublicExercise, ...]):
        self.assignment = assignment
        self.exercises = {exercise.id: exercise for exercise in exercises}

    @property
    def expected_path(self) -> Path:
        return EXPECTED_DIR / f"{self.assignment}.json"

    def cases_key(self) -> str:
        """SHA-256 of the encoded public cases and harness names (to detect stale expected outputs)."""
        data = {name: [spec.harness, spec.encoded_cases()] for name, spec in self.exercises.items()}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

    def as_spec_exercises(self) -> list[dict]:
        """The public cases encoded as the grader's child expects exercises (to compute expectations)."""
        return [{"id": name, "harness": exercise.harness, "cases": exercise.encoded_cases()}
                for name, exercise in self.exercises.items()]

    def check(self, exercise: str, obj) -> None:
        """Run the public cases of `exercise` on `obj`; print one line, or raise AssertionError.

        Args:
            exercise: the graded function's (or class's) name, e.g. "apply_gradient".
            obj: your implementation, e.g. `apply_gradient`.

        Raises:
            CheckFailed (an AssertionError): a case failed; the message names the case, what was
                expected and what came back (type, dtype, shape, value) or, when your code raised,
                the exception and the line of your code that raised it, and a hint. IPython shows
                the message alone, without the checker's own frames.
            CheckUsageError (a ValueError): `exercise` is not an exercise of this assignment.
            CheckArgumentError (a TypeError): `obj` is not a function or class.
        """
        __tracebackhide__ = True  # pytest shows the learner's call, not these frames
        spec = self._spec(exercise, obj)
        expected = self._expected(exercise)
        for number, (public, want) in enumerate(zip(spec.cases, expected), start=1):
            _run_public_case(spec, obj, public, want, f"public test {number} of {len(spec.cases)}")
        print(f"{exercise}: all {len(spec.cases)} public tests passed")

    def _spec(self, exercise: str, obj) -> PublicExercise:
        if exercise not in self.exercises:
            raise CheckUsageError(f"Unknown exercise {exercise!r}. Expected one of: "
                                  f"{', '.join(self.exercises)}.")
        if not callable(obj):
            raise CheckArgumentError(f"check({exercise!r}, ...) needs your function itself, e.g. "
                                     f"check({exercise!r}, {exercise}). Received: {_short(repr(obj))}")
        return self.exercises[exercise]

    def _expected(self, exercise: str) -> list[dict]:
        try:
            stored = json.loads(self.expected_path.read_text())
        except (OSError, ValueError) as error:
            raise RuntimeError(f"The expected outputs of the public checks ({self.expected_path}) cannot be "
                               f"read: {error}. Run `companion-labs refresh` to produce them.") from None
        if stored.get("format") != FORMAT or stored.get("cases_key") != self.cases_key():
            raise RuntimeError(f"The expected outputs in {self.expected_path} are out of date with the "
                               "public cases. Run `companion-labs refresh` to produce them again.")
        return stored["expected"][exercise]


def _run_public_case(spec: PublicExercise, obj, public: PublicCase, expected: dict, label: str) -> None:
    __tracebackhide__ = True
    call = _caller(obj, spec.harness)
    try:
        with _tests_own_logs_muted():
            got = encode_output(call(*[decode_input(encode_input(arg)) for arg in public.case.args]))
    except Exception as error:
        found = Difference("raised", f"the function raised {type(error).__name__}: {str(error).rstrip('.')}")
        where = learner_line(error.__traceback__)
        raise CheckFailed(_report(spec, public, label, found, expected, None, where)) from error
    found = difference(expected, got, spec.rule)
    if found is not None:
        raise CheckFailed(_report(spec, public, label, found, expected, got))


@contextlib.contextmanager
def _tests_own_logs_muted():
    """Records below ERROR of the "tensorflow" logger are dropped while a public case runs: the
    harness's own calls (an eager `strategy.run` of the learner's step, a retrace) would otherwise
    print TF's warnings into the learner's notebook under the check cell."""
    logger = logging.getLogger("tensorflow")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def learner_line(tb) -> list[str] | None:
    """Where the learner's own code raised: `[location, source line]`, or None if it never ran.

    The innermost frame of `tb` that is not in companion, the graders, the standard library or an
    installed package is the learner's (a notebook cell, or their own file). In IPython the
    location reads like its tracebacks, `Cell In[7], line 12, in tf_gradient_tape`.
    """
    frames = []
    for frame, line in traceback.walk_tb(tb):  # here, not in a comprehension: `_audit.ALLOWED` names this
        frames.append((frame.f_code, line))
    mine = [(code, line) for code, line in frames if not _library_file(code.co_filename)]
    if not mine:
        return None
    code, line = mine[-1]
    location = f'File "{code.co_filename}", line {line}, in {code.co_name}'
    cell = _cell_number(code.co_filename)
    if cell is not None:
        location = f"Cell In[{cell}], line {line}, in {code.co_name}"
    text = linecache.getline(code.co_filename, line).strip()
    return [location, text] if text else [location]


def _library_file(filename: str) -> bool:
    if filename.startswith("<") and _cell_number(filename) is None:
        return True  # <frozen ...>, <string>: not something the learner wrote
    return any(filename.startswith(folder) for folder in _library_folders())


def _library_folders() -> tuple[str, ...]:
    import companion

    folders = {str(Path(companion.__file__).resolve().parent), str(Path(__file__).resolve().parent)}
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        if sysconfig.get_paths().get(name):
            folders.add(str(Path(sysconfig.get_paths()[name]).resolve()))
    folders.update(str(Path(path).resolve()) for path in sys.path if "site-packages" in path)
    return tuple(folder.rstrip("/") + "/" for folder in folders)


def _cell_number(filename: str) -> int | None:
    """The execution count IPython gave the cell compiled as `filename`, or None outside IPython."""
    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    compiler = getattr(shell, "compile", None)
    return getattr(compiler, "_filename_map", {}).get(filename)


def _caller(obj, harness: str | None) -> Callable:
    if harness is None:
        return obj
    module, function = harness.split(".")
    run = getattr(importlib.import_module(f"graders.harnesses.{module}"), function)
    return lambda *args: run(obj, *args)


def _report(spec: PublicExercise, public: PublicCase, label: str, found: Difference, expected: dict,
            got: dict | None, line: list[str] | None = None) -> str:
    """The failure message: what failed and where, the call, expected vs got, and a hint."""
    want, mine = _at(expected, found.path), _at(got, found.path) if got is not None else None
    where = f" in {found.field}" if found.field else ""
    lines = [f"{spec.id}: {label} failed{where}: {_problem(found, want, mine)}.",
             f"  call:     {public.call}"]
    if line:
        lines += [f"  where:    {line[0]}", *(f"            {text}" for text in line[1:])]
    lines.append(f"  expected: {describe(want)}")
    if mine is not None:
        lines.append(f"  got:      {describe(mine)}")
    lines.append(f"Hint: {spec.hint(found)}")
    return "\n".join(lines)


def _problem(found: Difference, want: dict | None, got: dict | None) -> str:
    if found.kind in ("dtype", "shape") and want is not None and got is not None:
        expected, actual = _array(want), _array(got)
        if expected is not None and actual is not None:
            if found.kind == "dtype":
                return f"wrong dtype {actual.dtype.name} (expected {expected.dtype.name})"
            return f"wrong shape {actual.shape} (expected {expected.shape})"
    return {"none": "it returned None", "value": "wrong values",
            "type": f"it returned {_article(type_name(got or {}))}"}.get(found.kind, found.text)


def _at(node: dict | None, path: tuple[str, ...]) -> dict | None:
    """The sub-node a difference's path points at (fields by name, items by position)."""
    for part in path:
        if node is None:
            return None
        try:
            if part.startswith("item "):
                node = children(node)[int(part[5:])]
            else:
                node = dict(zip(keys(node), children(node)))[part]
        except (DecodeError, IndexError, KeyError, ValueError):
            return None
    return node


def describe(node: dict | None) -> str:
    """'TYPE, dtype D, shape S, value V' for an array node; 'TYPE, value V' for anything else."""
    if node is None:
        return "None"
    kind = type_name(node)
    array = _array(node)
    if array is not None:
        text = np.array2string(array, separator=", ", threshold=20, edgeitems=3).replace("\n", "")
        return f"{kind}, dtype {array.dtype.name}, shape {array.shape}, value {text}"
    if node.get("t") in ("list", "tuple"):
        items = children(node)
        if all(item.get("t") in ("bool", "int", "float", "str", "none") for item in items):
            values = [scalar(item) for item in items]
            return f"{kind}, value {_short(repr(values if kind == 'list' else tuple(values)))}"
        shown = ", ".join(describe(item) for item in items[:3]) + (", ..." if len(items) > 3 else "")
        return f"{kind} of {len(items)} items: [{_short(shown, 400)}]"
    if node.get("t") == "dict":
        return f"{kind} with fields {', '.join(keys(node))}"
    if node.get("t") in ("error", "object", "unreadable"):
        return kind
    if node.get("t") == "dtype":
        return f"{kind}, value {_short(str(node.get('name')))}"
    return f"{kind}, value {_short(repr(scalar(node)))}"


def _array(node: dict) -> np.ndarray | None:
    if node.get("t") not in ("tensor", "array"):
        return None
    try:
        return text_to_array(node.get("npy"))
    except DecodeError:
        return None


def _article(name: str) -> str:
    return name if name == "None" else f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."

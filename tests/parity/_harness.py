"""Run a parity program with `tensorflow` resolved to companion, and compare its output with TF's.

The parity suite's machinery, kept apart from the test module so that each piece can be read on
its own: an import alias (`tensorflow`, `tensorflow.keras`, ... are companion's modules), an
in-process runner that restores companion's global state between programs, and a comparer that
matches text exactly and numbers within a tolerance. See README.md in this folder.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.util
import io
import json
import logging
import math
import os
import re
import runpy
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PARITY_DIR = Path(__file__).resolve().parent
RTOL = 1e-4
ATOL = 1e-5
# A number token: not glued to a name before it (float32, dense_1), optional sign, digits with an
# optional fraction and exponent; or nan/inf as NumPy and Python print them.
# Documented naming differences (README, "Where companion differs"), read as companion's: TF's
# reprs name `tf.` where companion's name `companion.` (`tf.Tensor(...)`, `<tf.Variable ...>`,
# `dtype=tf.float32`). A tensor printed while a function traces is TF's `Tensor("x:0", shape=...,
# dtype=...)` in both.
TF_PREFIX = re.compile(r"(?<![\w.])tf\.(?=(?:Tensor|Variable|RaggedTensor|SparseTensor|IndexedSlices"
                       r"|Operation)\b"
                       r"|(?:bfloat|float|u?int|bool|string|complex|half|double|resource|variant)\d*\b)")
# Keras 3's progress bar (`fit(verbose=1)`) redraws a line with backspaces and "\r" and styles it
# with ANSI codes; what is compared is what a terminal shows at the end. Its timings (`0s 12ms/step`,
# `2/2 - 0s - 15ms/step`, an ETA) differ from run to run, so each is read as one placeholder.
ANSI_STYLE = re.compile(r"\x1b\[[0-9;]*m")
STEP_TIME = re.compile(r"(?<![\w.])(?:\d+(?::\d\d)*s( -)? )?\d+(?:s|ms|us)/(step|sample|epoch)\b")
NUMBER = re.compile(r"(?<![\w.])(?:[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|-?\binf\b|\bnan\b)")


@dataclass(frozen=True)
class Outcome:
    """What a program did: its stdout and, if it raised, the exception's class name."""

    stdout: str
    raised: str | None = None


def programs() -> list[Path]:
    """Every parity program: tests/parity/GROUP/NAME.py, sorted."""
    return sorted(path for path in PARITY_DIR.glob("*/*.py") if not path.name.startswith(("test_", "_")))


def program_id(path: Path) -> str:
    """`group/name` of a program, the key used in differences.toml and in test ids."""
    return f"{path.parent.name}/{path.stem}"


def recorded(path: Path) -> Outcome | None:
    """TF's recorded outcome of a program (NAME.out, NAME.status), or None if never recorded."""
    out = path.with_suffix(".out")
    if not out.exists():
        return None
    status = path.with_suffix(".status")
    raised = None
    if status.exists():
        text = status.read_text().strip()
        raised = text.removeprefix("raised ").strip() if text.startswith("raised ") else text
    return Outcome(out.read_bytes().decode("utf-8"), raised)  # "\r"s kept: Keras's progress bar redraws


DIFFERENCE_KINDS = ("limits", "design", "pending")


def differences() -> dict[str, dict[str, str]]:
    """differences.toml: {kind: {program: reason}} for each kind in DIFFERENCE_KINDS."""
    with open(PARITY_DIR / "differences.toml", "rb") as file:
        table = tomllib.load(file)
    unknown = set(table) - set(DIFFERENCE_KINDS)
    if unknown:
        raise ValueError(f"differences.toml has unknown table(s) {sorted(unknown)}. "
                         f"Expected {DIFFERENCE_KINDS}.")
    return {kind: dict(table.get(kind, {})) for kind in DIFFERENCE_KINDS}


class TensorflowAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolve `tensorflow` and `tensorflow.X.Y` to `companion` and `companion.X.Y`."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "tensorflow" and not fullname.startswith("tensorflow."):
            return None
        target_name = "companion" + fullname[len("tensorflow"):]
        try:
            module = importlib.import_module(target_name)
        except ImportError:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=getattr(module, "__file__", None),
                                               is_package=hasattr(module, "__path__"))

    def create_module(self, spec):
        return importlib.import_module("companion" + spec.name[len("tensorflow"):])

    def exec_module(self, module):
        """The module is companion's own, already executed."""


def install_alias() -> None:
    """Put the alias first on sys.meta_path (once per process)."""
    if not any(isinstance(finder, TensorflowAlias) for finder in sys.meta_path):
        sys.meta_path.insert(0, TensorflowAlias())


def remove_alias() -> None:
    """Take the alias and the `tensorflow` modules it made away again, so that code run later in
    this process (TensorBoard's own writer probes `import tensorflow`) does not meet companion."""
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, TensorflowAlias)]
    for name in [name for name in sys.modules if name == "tensorflow" or name.startswith("tensorflow.")]:
        del sys.modules[name]


# what a program calls that makes it run in a fresh interpreter (see `run`)
_FRESH_INTERPRETER = ("set_logical_device_configuration", "op_parallelism_threads(", "enable_debug_mode(")


def run(path: Path, workdir: Path) -> Outcome:
    """Run one program: in this process, or in a fresh interpreter when it splits the CPU into
    logical devices or sizes the thread pools (which, as in TF, must happen before the first
    tensor: earlier programs in this process made tensors, so it raised RuntimeError whenever it
    did not run first), or turns on tf.data's debug mode (for the rest of the process, as in TF)."""
    text = path.read_text()
    if not any(call in text for call in _FRESH_INTERPRETER):
        return run_in_process(path, workdir)
    child = ("import json, sys\nfrom pathlib import Path\nfrom tests.parity import _harness\n"
             "outcome = _harness.run_in_process(Path(sys.argv[1]), Path(sys.argv[2]))\n"
             "print('OUTCOME ' + json.dumps([outcome.stdout, outcome.raised]))\n")
    root = PARITY_DIR.parent.parent
    paths = [str(root), os.environ.get("PYTHONPATH")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in paths if path))
    done = subprocess.run([sys.executable, "-c", child, str(path), str(workdir)], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("OUTCOME ")]
    assert lines, f"{program_id(path)}: the fresh interpreter failed:\n{done.stdout}\n{done.stderr}"
    stdout, raised = json.loads(lines[-1][len("OUTCOME "):])
    return Outcome(stdout, raised)


def run_in_process(path: Path, workdir: Path) -> Outcome:
    """Run one program as __main__ in this process, in `workdir`, capturing what it prints."""
    install_alias()
    reset_state()
    buffer = io.StringIO()
    raised = None
    cwd = os.getcwd()
    printoptions = np.get_printoptions()
    logger = logging.getLogger("tensorflow")  # a program may add handlers: the next one must not see them
    logging_state = (list(logger.handlers), logger.propagate, logger.level)
    os.chdir(workdir)
    try:
        with contextlib.redirect_stdout(buffer):
            runpy.run_path(str(path), run_name="__main__")
    except SystemExit as exit_:
        if exit_.code not in (None, 0):
            raised = "SystemExit"
    except BaseException as error:  # the program's own exception is part of its outcome
        if isinstance(error, KeyboardInterrupt):
            raise
        raised = type(error).__name__
    finally:
        os.chdir(cwd)
        np.set_printoptions(**printoptions)
        logger.handlers[:], logger.propagate, logger.level = logging_state
        reset_state()
        remove_alias()
    return Outcome(buffer.getvalue(), raised)


def reset_state() -> None:
    """Give the next program what a fresh interpreter would: no seed, fresh Keras names, staged functions."""
    import companion as tf

    tf.random.set_seed(None)
    tf.config.run_functions_eagerly(False)
    tf.keras.backend.clear_session()


def compare(expected: Outcome, actual: Outcome) -> list[str]:
    """Differences between TF's outcome and companion's, one readable line each (empty: they match)."""
    problems = []
    if expected.raised != actual.raised:
        problems.append(f"TF {_ending(expected.raised)}, companion {_ending(actual.raised)}")
    want_text = TF_PREFIX.sub("companion.", as_shown(expected.stdout))
    got_text = as_shown(actual.stdout)
    if lines_match(want_text, got_text):
        return problems  # equal up to whitespace, line breaks included (NumPy wraps wide numbers)
    want, got = want_text.splitlines(), got_text.splitlines()
    for number, (line_want, line_got) in enumerate(zip(want, got), start=1):
        if not lines_match(line_want, line_got):
            problems.append(f"line {number}:\n    TF:        {line_want}\n    companion: {line_got}")
    if len(want) != len(got):
        extra = want[len(got):] if len(want) > len(got) else got[len(want):]
        who = "TF" if len(want) > len(got) else "companion"
        problems.append(f"{who} printed {len(extra)} more line(s), from line {min(len(want), len(got)) + 1}: "
                        + " | ".join(extra[:5]))
    return problems


def as_shown(text: str) -> str:
    """What a terminal shows of `text`, with step timings as placeholders: each line's redraws
    ("\b" moves back a column, "\r" to the first) applied, ANSI styles dropped (Keras's progress bar)."""
    text = ANSI_STYLE.sub("", text)
    if "\r" in text or "\b" in text:
        text = "\n".join(_render_line(line) for line in text.split("\n"))
    return STEP_TIME.sub(r"<elapsed>\1 <time>/\2", text)


def _render_line(line: str) -> str:
    if "\r" not in line and "\b" not in line:
        return line
    columns: list[str] = []
    cursor = 0
    for char in line:
        if char == "\r":
            cursor = 0
        elif char == "\b":
            cursor = max(cursor - 1, 0)
        else:
            columns[cursor:cursor + 1] = [char]
            cursor += 1
    return "".join(columns)


def lines_match(expected: str, actual: str) -> bool:
    """Text equal up to whitespace runs (line breaks too); numbers within tolerance, integers exactly."""
    want, got = _split(expected), _split(actual)
    if len(want) != len(got):
        return False
    for index, (a, b) in enumerate(zip(want, got)):
        if index % 2 == 0:
            if a != b:
                return False
        elif not numbers_match(a, b):
            return False
    return True


def numbers_match(expected: str, actual: str) -> bool:
    """Two printed numbers agree: integers exactly; floats within RTOL/ATOL or the last printed digit."""
    if _is_integer(expected) or _is_integer(actual):
        return expected.lstrip("+") == actual.lstrip("+")
    a, b = float(expected), float(actual)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(ATOL, RTOL * abs(a), _last_digit(expected, actual))


def _split(line: str) -> list[str]:
    """Alternating [text, number, ..., text]: whitespace runs collapsed, none inside brackets' edges."""
    line = re.sub(r"(?<=[(\[=]) | (?=[)\]])", "", " ".join(line.split()))
    parts = NUMBER.split(line)
    numbers = NUMBER.findall(line)
    out = []
    for index, text in enumerate(parts):
        out.append(text)
        if index < len(numbers):
            out.append(numbers[index])
    return out


def _is_integer(token: str) -> bool:
    return re.fullmatch(r"[-+]?\d+", token) is not None


def _last_digit(expected: str, actual: str) -> float:
    """One unit in the last printed decimal, when both show at least 4 significant digits (rounding)."""
    digits = [len(re.sub(r"[^0-9]", "", token.split("e")[0].split("E")[0]).lstrip("0")) for token in
              (expected, actual)]
    if min(digits) < 4 or "e" in (expected + actual).lower():
        return 0.0
    decimals = min(len(token.split(".")[1]) if "." in token else 0 for token in (expected, actual))
    return 1.0001 * 10.0 ** -decimals


def _ending(raised: str | None) -> str:
    return "exited normally" if raised is None else f"raised {raised}"

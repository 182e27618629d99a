"""Run a notebook's cells and graded functions in sandboxed children; collect their plain-data outputs.

One attempt is one child: it runs every code cell, reports, receives the hidden inputs, and reports
each exercise's outputs. A child that dies or hangs during an exercise costs only that exercise:
the notebook is run again in a fresh child for the exercises still pending (MAX_ATTEMPTS in all).
A child that fails before the notebook's first cell begins ran none of its code, so that failure
is the machine's: another child is started (within the same MAX_ATTEMPTS).
"""

from __future__ import annotations

import json
import os
import secrets
import select
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from graders._codec import valid_node
from graders._limits import STARTUP_GRACE, STEP_GRACE, Limits
from graders._process import ChildProcess, exit_reason
from graders._sandbox import Layout, child_command, needed_paths, sandbox_mode

ROOT = Path(__file__).resolve().parents[1]
CHILD = Path(__file__).resolve().with_name("_child.py")
MAX_ATTEMPTS = 3
MAX_EVENT_BYTES = 64 * 2**20
REPORT_GRACE = 3.0  # seconds after an exercise's limit for the child to encode and send its outputs
PASS_ENV = ("XLA_FLAGS", "OMP_NUM_THREADS", "LANG")
_MALFORMED = {"t": "unreadable", "type": "object", "message": "the child sent malformed data for this case"}


@dataclass
class ExerciseRun:
    """What the child reported for one exercise: `status` ran/missing/not_callable/failed."""

    status: str
    outputs: list = field(default_factory=list)
    reason: str = ""
    type: str = ""


@dataclass
class NotebookRun:
    """Everything the children reported: per-exercise outputs, cell errors, the output log, time."""

    exercises: dict[str, ExerciseRun]
    cell_errors: list[dict]
    log: str
    seconds: float
    stopped: str = ""
    phases: dict[str, float] = field(default_factory=dict)


@dataclass
class _Attempt:
    exercises: dict[str, ExerciseRun] = field(default_factory=dict)
    cell_errors: list[dict] | None = None
    failure: str = ""
    current: str | None = None
    cell: int | None = None
    log: str = ""
    expected_cases: int = 0
    token: str = ""  # the current exercise's: its result event must carry it
    exited_before_cells: bool = False
    marks: dict[str, float] = field(default_factory=lambda: {"start": time.monotonic()})


class _ProtocolError(ValueError):
    """The child sent something that is not a well-formed event."""


def run_notebook(cells: list[dict], exercises: list[dict], limits: Limits,
                 hidden: tuple[Path, ...], pool=None) -> NotebookRun:
    """Run `cells` then each exercise (`{"id", "cases": [[encoded args]]}`) in sandboxed children.

    With `pool` (a `_pool.ForkServer` started with the same limits and hidden paths), each child is
    forked from its warm zygote instead of started afresh.
    """
    start, results, pending, logs = time.monotonic(), {}, list(exercises), []
    cell_errors, stopped, first = None, "", None
    for _ in range(MAX_ATTEMPTS):
        attempt = _attempt(cells, pending, limits, hidden, pool)
        cell_errors = attempt.cell_errors if cell_errors is None else cell_errors
        results.update(attempt.exercises)
        stopped = ""
        first = first if first is not None and first.cell is not None else attempt
        logs.append(attempt.log)
        if not attempt.failure:
            break
        if not attempt.current:
            stopped = _where(attempt) + attempt.failure
            if attempt.exited_before_cells:
                # it died before the notebook's first cell began, so no code of the notebook ran: a
                # failure of the machine (e.g. sandbox set-up under heavy load), worth another child
                continue
            break
        results[attempt.current] = ExerciseRun("failed", reason=f"the notebook's process {attempt.failure}")
        pending = [exercise for exercise in pending if exercise["id"] not in results]
        if not pending:
            break
    for exercise in exercises:
        results.setdefault(exercise["id"], ExerciseRun("failed", reason=_not_run(stopped)))
    return NotebookRun(results, cell_errors or [], "\n".join(logs), time.monotonic() - start, stopped,
                       _phases(first.marks))


def _phases(marks: dict[str, float]) -> dict[str, float]:
    """Seconds of the first attempt's start-up, cells and exercises (from the parent's clock)."""
    order = [name for name in ("start", "cells", "exercises", "done") if name in marks]
    return {name: round(marks[after] - marks[name], 3) for name, after in zip(order, order[1:])}


def _where(attempt: _Attempt) -> str:
    if attempt.cell_errors is not None:
        return "after the notebook's cells ran, the notebook's process "
    if attempt.cell is None:
        return "while starting (sandbox set-up, Python start-up), the notebook's process "
    return f"while running cell {attempt.cell}, the notebook's process "


def _not_run(stopped: str) -> str:
    return f"not graded: {stopped}" if stopped else "not graded: the notebook's process failed repeatedly"


def _attempt(cells: list[dict], exercises: list[dict], limits: Limits, hidden: tuple[Path, ...],
             pool=None) -> _Attempt:
    """One child: start it, feed it, read its events until done, failure or deadline."""
    with tempfile.TemporaryDirectory(prefix="companion-grade-") as scratch:
        layout = _layout(Path(scratch), hidden)
        read_end, write_end = os.pipe()
        try:
            child = _spawn(pool, write_end, limits) if pool is not None else None
            child = child or _start(layout, write_end, limits)
        finally:
            os.close(write_end)
        attempt = _Attempt()
        try:
            child.send(_line({"cells": cells, "notebook_timeout": limits.notebook_timeout,
                              "exercise_timeout": limits.exercise_timeout, "memory_mb": limits.memory_mb,
                              "cpu_seconds": limits.cpu_limit(len(exercises)), "file_mb": limits.file_mb}))
            _follow(child, read_end, exercises, limits, attempt)
        finally:
            os.close(read_end)
            status = child.finish()
            if attempt.failure == "exit":
                attempt.exited_before_cells = attempt.cell is None and attempt.cell_errors is None
                attempt.failure = exit_reason(status, child.killed_for, limits.memory_mb,
                                              child.tasks_refused)
            attempt.log = child.log()
        return attempt


def _layout(scratch: Path, hidden: tuple[Path, ...]) -> Layout:
    """A work dir the child (maybe uid nobody) can reach, beside a staging dir only root can enter."""
    scratch.chmod(0o711)
    (scratch / "work").mkdir(mode=0o755)
    (scratch / "stage").mkdir(mode=0o700)
    return Layout(work=scratch / "work", stage=scratch / "stage", hidden=hidden, needed=needed_paths(ROOT))


def _spawn(pool, channel: int, limits: Limits) -> ChildProcess | None:
    """A child forked by the warm pool, or None when the pool cannot give one (a fresh one is started)."""
    from graders._pool import PoolError

    try:
        return pool.spawn(channel, limits.memory_mb)
    except PoolError:
        return None


def _start(layout: Layout, channel: int, limits: Limits) -> ChildProcess:
    argv = child_command(sandbox_mode(), layout, [sys.executable, "-I", "-B", str(CHILD)])
    env = _child_env(layout.work, channel, limits.host_devices)
    return ChildProcess(argv, env, layout.work, (channel,), limits.memory_mb)


def _child_env(work: Path, channel: int, host_devices: int = 1) -> dict[str, str]:
    """A minimal environment: nothing of the grader's but a few performance settings."""
    env = {name: os.environ[name] for name in PASS_ENV if name in os.environ}
    env.update(PATH="/usr/local/bin:/usr/bin:/bin", HOME=str(work), TMPDIR=str(work), MPLBACKEND="Agg",
               MPLCONFIGDIR=str(work / ".matplotlib"), IPYTHONDIR=str(work / ".ipython"), JAX_PLATFORMS="cpu",
               PYTHONHASHSEED="0", COMPANION_GRADER_FD=str(channel),
               COMPANION_CACHE="0")  # no compiled program may pass from one submission to another
    if host_devices > 1:
        flags = [flag for flag in env.get("XLA_FLAGS", "").split()
                 if not flag.startswith("--xla_force_host_platform_device_count")]
        env["XLA_FLAGS"] = " ".join([*flags, f"--xla_force_host_platform_device_count={host_devices}"])
    return env


def _follow(child: ChildProcess, channel: int, exercises: list[dict], limits: Limits,
            attempt: _Attempt) -> None:
    """Read events, enforcing the parent's deadlines; set `attempt.failure` when the child misbehaves.

    The parent owns every deadline: the notebook's runs from the child's start; each exercise's
    from the moment the parent sends it (one at a time). No event of the child can extend one,
    and a result that has not fully arrived by its deadline is discarded with the child.
    """
    queue = list(exercises)
    reader = _EventReader(channel, child)
    deadline = time.monotonic() + STARTUP_GRACE + limits.notebook_timeout + STEP_GRACE
    try:
        while (event := reader.next(deadline)) is not None:
            if _handle(event, attempt):
                return
            if attempt.cell_errors is not None and attempt.current is None:
                deadline = _send_next(child, queue, attempt, limits)
        attempt.failure = "exit"
        return
    except TimeoutError:
        attempt.failure = _late(attempt, limits)
    except _ProtocolError:
        attempt.failure = "sent data the grader could not read (did the notebook write to the grader's pipe?)"
    child.kill(attempt.failure)


def _send_next(child: ChildProcess, queue: list[dict], attempt: _Attempt, limits: Limits) -> float:
    """Send the next exercise (or the end of the job); return the deadline the parent now enforces."""
    if not queue:
        child.send(_line({"exercise": None}))
        attempt.current = ""
        return time.monotonic() + STEP_GRACE
    exercise = queue.pop(0)
    attempt.current, attempt.expected_cases = exercise["id"], len(exercise["cases"])
    # a fresh secret per exercise, held by the child's loop: a notebook writing its own result event to
    # the channel during the graded call does not know it (short of reading the grader's frames)
    attempt.token = secrets.token_hex(16)
    child.send(_line({"exercise": exercise, "token": attempt.token}))
    return time.monotonic() + limits.exercise_timeout + REPORT_GRACE


def _handle(event: dict, attempt: _Attempt) -> bool:
    """Apply one event to `attempt`; True when the child reported that it is done."""
    kind, graded = event.get("event"), attempt.cell_errors is not None
    if kind == "cell" and not graded:
        attempt.cell = _int(event.get("index"))
        attempt.marks.setdefault("cells", time.monotonic())
    elif kind == "cells_done" and not graded:
        attempt.cell_errors = _cell_errors(event.get("errors"))
        attempt.marks.setdefault("cells", time.monotonic())
        attempt.marks["exercises"] = time.monotonic()
    elif kind == "exercise" and graded and attempt.current and event.get("id") == attempt.current \
            and secrets.compare_digest(str(event.get("token", "")), attempt.token):
        attempt.exercises[attempt.current] = _exercise_run(event, attempt.expected_cases)
        attempt.current = None
    elif kind == "done" and attempt.current == "":
        attempt.marks["done"] = time.monotonic()
        attempt.current = None
        return True
    else:
        raise _ProtocolError(f"unexpected event {str(kind)[:40]!r}")
    return False


def _late(attempt: _Attempt, limits: Limits) -> str:
    if attempt.cell_errors is None:
        return f"did not finish the notebook in time ({limits.notebook_timeout:g} s) and was stopped"
    return f"did not finish within the exercise time limit ({limits.exercise_timeout:g} s) and was stopped"


def _exercise_run(event: dict, cases: int) -> ExerciseRun:
    status = event.get("status")
    if status == "ran":
        outputs = event.get("outputs")
        if not isinstance(outputs, list) or len(outputs) != cases:
            raise _ProtocolError("malformed outputs")
        checked = [output if valid_node(output) else dict(_MALFORMED) for output in outputs]
        return ExerciseRun("ran", outputs=checked)
    if status in ("missing", "not_callable"):
        return ExerciseRun(status, type=str(event.get("type", ""))[:80])
    if status == "tampered":
        return ExerciseRun("failed", reason=_tampered(event.get("changed")))
    raise _ProtocolError(f"unknown exercise status {str(status)[:40]!r}")


def _tampered(changed) -> str:
    """Why an exercise was not graded: the notebook replaced code the grader relies on (names it sent)."""
    names = [str(name)[:120] for name in changed[:6]] if isinstance(changed, list) else []
    listed = ", ".join(names) or "code"
    return (f"not graded: the notebook replaced {listed} (functions or classes of companion, NumPy, JAX, "
            "the grader or Python's builtins); the grader runs only on that code as shipped")


def _cell_errors(errors) -> list[dict]:
    if not isinstance(errors, list):
        raise _ProtocolError("malformed cell errors")
    return [{"index": _int(error.get("index")), "error": str(error.get("error", ""))[:600]}
            for error in errors[:1000] if isinstance(error, dict)]


def _int(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _ProtocolError("expected an integer")
    return value


def _line(payload: dict) -> bytes:
    return (json.dumps(payload) + "\n").encode()


class _EventReader:
    """JSON-line events from the channel fd, with a deadline and a size cap."""

    def __init__(self, fd: int, child: ChildProcess):
        self.fd, self.child, self.buffer, self.total = fd, child, b"", 0

    def next(self, deadline: float) -> dict | None:
        """The next event; None at end of stream (or when the child exited); TimeoutError at `deadline`."""
        while b"\n" not in self.buffer:
            if not self._fill(deadline):
                return None
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            raise _ProtocolError("not JSON") from None
        if not isinstance(event, dict):
            raise _ProtocolError("not an object")
        return event

    def _fill(self, deadline: float) -> bool:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        if self.child.killed_for:
            return False
        ready, _, _ = select.select([self.fd], [], [], min(remaining, 0.5))
        if not ready:
            return self.child.alive() or self._fill_after_exit()
        chunk = os.read(self.fd, 1 << 20)
        self.total += len(chunk)
        if self.total > MAX_EVENT_BYTES:
            raise _ProtocolError("too much data")
        self.buffer += chunk
        return bool(chunk)

    def _fill_after_exit(self) -> bool:
        """The child exited; its last events may still be in the pipe (a leftover process may hold it)."""
        ready, _, _ = select.select([self.fd], [], [], 0.2)
        if not ready:
            return False
        chunk = os.read(self.fd, 1 << 20)
        self.buffer += chunk
        return bool(chunk)

"""The sandboxed child: runs a notebook's code cells, then the graded functions on hidden inputs.

Started by `_runner` as `python -I -B _child.py` inside the sandbox. It reads a job from stdin
(first the cells; then, after the cells have run, one exercise with its hidden inputs at a time,
so notebook code never sees them and the parent times each exercise itself), and writes
JSON-line events to the channel fd named by $COMPANION_GRADER_FD. It sends only plain data (see
`_codec`): outputs, dtypes, shapes, exception names. It computes no verdict and owns no deadline
that counts: its alarms only stop learner code early; the parent discards anything late.
"""

import gc
import importlib
import io
import json
import os
import pkgutil
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graders import _integrity  # noqa: E402
from graders._guard import Guard, code_ids  # noqa: E402
from graders._integrity import CodeSnapshot, ImportRecorder, Tampered  # noqa: E402
from graders._spec import HARNESS_NAME  # noqa: E402
from graders._values import decode_input, encode_output, type_name  # noqa: E402

_TIMEOUT = {"t": "error", "type": "TimeoutError", "timeout": True}


_PREPARED: dict = {}  # filled by prepare(): in the warm pool's zygote, else by main() before the first cell


class _Deadline(BaseException):
    """Raised by SIGALRM when a cell or exercise runs past its wall-clock limit."""


def prepare() -> None:
    """Import every harness and record the code they rely on, before any notebook code runs.

    The harnesses are then taken from here, not from `sys.modules`, and an exercise is graded only
    while that code is as recorded (`_integrity`), with no learner code running but what the harness
    calls (`_guard`, armed at the first cell). The warm pool's zygote calls this once for all its
    children (the snapshot costs a few tenths of a second); a fresh child calls it itself.
    """
    if _PREPARED:
        return
    # deferred: companion is imported here, once, not when this module loads (the zygote imports it first)
    import companion

    # deferred: the harnesses import companion too
    import graders.harnesses as package

    for info in pkgutil.walk_packages(companion.__path__, "companion."):  # companion loads lazily: all of it
        importlib.import_module(info.name)  # now, so that the snapshot holds every class a harness may use
    harnesses = {info.name: importlib.import_module(f"graders.harnesses.{info.name}")
                 for info in pkgutil.iter_modules(package.__path__)}
    snapshot = CodeSnapshot()
    guard = Guard(snapshot, code_ids(snapshot))
    guard.install()
    sys.meta_path.insert(0, ImportRecorder(snapshot))
    _integrity.activate(snapshot)
    _PREPARED.update(harnesses=dict(harnesses), snapshot=snapshot, guard=guard)
    for key in list(_PREPARED):  # the grader's own state: a notebook swapping a part of it is told apart
        snapshot.pin(f"graders._child._PREPARED[{key!r}]", _PREPARED, key)
    for name in harnesses:
        snapshot.pin(f"graders.harnesses.{name}", _PREPARED["harnesses"], name)
    for key in list(_integrity._STATE):
        snapshot.pin(f"graders._integrity._STATE[{key!r}]", _integrity._STATE, key)


def main() -> int:
    """Run the job read from stdin; return 0 when every step was reported."""
    channel = int(os.environ.pop("COMPANION_GRADER_FD"))
    jobs = os.fdopen(os.dup(0), "rb")
    job = json.loads(jobs.readline())
    _limit_resources(job)
    _detach_stdin()
    signal.signal(signal.SIGALRM, _raise_deadline)
    prepare()
    shell = _make_shell()
    # held in this frame's locals from now on: the notebook can rebind this module's names, not these
    emit, checked_run, read = _emit, _checked_run, json.loads
    _PREPARED["guard"].arm()
    errors = _run_cells(shell, job["cells"], job["notebook_timeout"], channel)
    emit(channel, {"event": "cells_done", "errors": errors})
    while (exercise := (message := read(jobs.readline())).get("exercise")) is not None:
        token = message.pop("token")  # the parent's secret for this exercise's result (`_runner`)
        outputs = checked_run(shell.user_ns, exercise, job["exercise_timeout"])
        emit(channel, {"event": "exercise", "id": exercise["id"], "token": token, **outputs})
    emit(channel, {"event": "done"})
    return 0


def _limit_resources(job: dict) -> None:
    """Cap data memory (RLIMIT_DATA works with JAX's address-space reservations), CPU time, file size."""
    memory = int(job["memory_mb"]) * 2**20
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    cpu = int(job["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    file_bytes = int(job["file_mb"]) * 2**20
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _detach_stdin() -> None:
    """Give notebook code an empty stdin: the job pipe stays private to this module."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = io.StringIO("")


def _raise_deadline(signum, frame):
    raise _Deadline()


def _make_shell():
    """An IPython shell without history or GUI, so magics such as %matplotlib work headless."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class HeadlessShell(InteractiveShell):
        def enable_gui(self, gui=None):
            """No event loop here; plots render with the Agg backend."""

        def enable_matplotlib(self, gui=None):
            import matplotlib

            matplotlib.use("Agg")
            return gui, "agg"

    config = Config()
    config.HistoryManager.enabled = False
    shell = HeadlessShell.instance(config=config)
    shell.colors = "nocolor"
    return shell


def _run_cells(shell, cells: list[dict], timeout: float, channel: int) -> list[dict]:
    """Run every cell in order (errors do not stop the notebook) within `timeout` seconds in all."""
    end, errors = time.monotonic() + timeout, []
    for cell in cells:
        if time.monotonic() >= end:
            late = f"not run: the notebook's time limit ({timeout:g} s) was reached before this cell"
            errors.append({"index": cell["index"], "error": late})
            continue
        _emit(channel, {"event": "cell", "index": cell["index"]})
        error = _run_cell(shell, cell["source"], end, timeout)
        if error:
            errors.append({"index": cell["index"], "error": error})
    return errors


def _run_cell(shell, source: str, end: float, timeout: float) -> str | None:
    """Run one cell with the remaining time as its alarm; return its error text or None."""
    try:
        signal.setitimer(signal.ITIMER_REAL, max(end - time.monotonic(), 0.001))
        result = shell.run_cell(source, store_history=False)
        signal.setitimer(signal.ITIMER_REAL, 0)
    except _Deadline:
        return f"stopped: the notebook's time limit ({timeout:g} s) was reached in this cell"
    error = result.error_before_exec or result.error_in_exec
    if isinstance(error, _Deadline):
        return f"stopped: the notebook's time limit ({timeout:g} s) was reached in this cell"
    return None if error is None else _describe(error)


def _checked_run(namespace: dict, exercise: dict, timeout: float, _changed=_integrity.changed_now) -> dict:
    """`_run_exercise`, graded only while the code the harnesses rely on is as recorded: checked before
    the exercise, after each case (a case's code could patch what the next case's harness calls) and
    by the harnesses before they read (`_integrity.verify`); the notebook's signal handlers, timers
    and collector are quiet meanwhile (`_guard`). Once armed, the audit hook's copy of the record
    compares (`_changed`, held in the defaults: a notebook rebinding this module's names is seen)."""
    guard = _PREPARED["guard"]
    guard.quiet()

    def check():  # `Guard.check`'s steps, held here: notebook code can rebind the class's methods
        gc.disable()
        gc.collect()  # finalizers run now, where the comparison sees what they did
        names = _changed()
        return guard.compare() if names is None else names  # no hook armed (tests): the guard's own

    try:
        changed = check()
        outputs = {} if changed else _run_exercise(namespace, exercise, timeout, check)
        changed = changed or outputs.get("changed") or check()
    finally:
        guard.release()
    return {"status": "tampered", "changed": changed} if changed else outputs


def _run_exercise(namespace: dict, exercise: dict, timeout: float, changed=list) -> dict:
    """Call the graded function (or its harness) on each hidden case within `timeout` seconds in all;
    stop with `{"changed": names}` as soon as `changed()` names something after a case."""
    target = namespace.get(exercise["id"])
    if target is None:
        return {"status": "missing"}
    if not callable(target):
        return {"status": "not_callable", "type": type_name(target)}
    outputs, deadline_hit = [], False
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        call = _caller(target, exercise.get("harness"))
    except _Deadline:
        return {"status": "ran", "outputs": [dict(_TIMEOUT) for _ in exercise["cases"]]}
    except BaseException as error:  # the harness could not be loaded: every case fails, the run goes on
        signal.setitimer(signal.ITIMER_REAL, 0)
        return {"status": "ran", "outputs": [_error_node(error) for _ in exercise["cases"]]}
    for args in exercise["cases"]:
        outputs.append(dict(_TIMEOUT) if deadline_hit else _run_case(call, args))
        deadline_hit = deadline_hit or outputs[-1].get("timeout", False)
        remaining = signal.setitimer(signal.ITIMER_REAL, 0)[0]  # the check is the grader's time
        if names := outputs[-1].get("tampered") or changed():
            return {"status": "tampered", "changed": names}
        if remaining > 0:
            signal.setitimer(signal.ITIMER_REAL, remaining)
    signal.setitimer(signal.ITIMER_REAL, 0)
    return {"status": "ran", "outputs": outputs}


def _caller(target, harness: str | None):
    """The graded function itself, or its harness from graders.harnesses bound to it."""
    if harness is None:
        return target
    if not isinstance(harness, str) or not HARNESS_NAME.fullmatch(harness):
        raise ValueError(f"bad harness name {harness!r}")
    module, function = harness.split(".")
    run = getattr(_PREPARED["harnesses"][module], function)
    return lambda *args: run(target, *args)


def _run_case(function, encoded_args: list) -> dict:
    """One call on freshly decoded inputs; its output or exception as plain data."""
    try:
        value = function(*[decode_input(arg) for arg in encoded_args])
        return _encode_output(value)
    except _Deadline:
        return dict(_TIMEOUT)
    except BaseException as error:  # SystemExit, KeyboardInterrupt too: this case fails, the run goes on
        if type(error) is Tampered:  # a harness's `verify()` found the code replaced before it read
            return {"t": "error", "tampered": [str(name)[:120] for name in error.names][:6] or ["code"]}
        return _error_node(error)


def _error_node(error: BaseException) -> dict:
    try:
        return {"t": "error", "type": type_name(error, qualified=False), "message": _describe(error)}
    except _Deadline:
        return dict(_TIMEOUT)


def _encode_output(value) -> dict:
    """`encode_output`, with learner BaseExceptions raised while reading the value caught too."""
    try:
        return encode_output(value)
    except _Deadline:
        raise
    except BaseException as error:
        return {"t": "unreadable", "type": type_name(value), "message": _describe(error)}


def _describe(error: BaseException) -> str:
    """`Type: message`, cut to 500 characters; a message that cannot be read in time is left out."""
    timed = signal.getitimer(signal.ITIMER_REAL)[0] == 0  # else the running deadline bounds str()
    try:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 2)
        message = str.__str__(str(error))[:500]  # a plain str, whatever the learner's __str__ returns
    except _Deadline:
        if not timed:
            raise
        message = "<the exception's message could not be read>"
    except BaseException:
        message = "<the exception's message could not be read>"
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
    name = type_name(error, qualified=False)
    return f"{name}: {message}" if message else name


def _emit(channel: int, event: dict, _dumps=json.dumps, _write=os.write) -> None:
    """Write `event` to the channel (its helpers held in the defaults, bound before any notebook code)."""
    data = (_dumps(event) + "\n").encode()
    while data:
        data = data[_write(channel, data):]


if __name__ == "__main__":
    sys.exit(main())

"""The sandboxed child: runs a notebook's code cells, then the graded functions on hidden inputs.

Started by `_runner` as `python -I -B _child.py` inside the sandbox. It reads a job from stdin
(first the cells; the hidden inputs only after the cells have run, so notebook code never sees
them), and writes JSON-line events to the channel fd named by $COMPANION_GRADER_FD. It sends
only plain data (see `_codec`): outputs, dtypes, shapes, exception names. It computes no verdict.
"""

import io
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from graders._codec import array_to_text, encode_plain, text_to_array  # noqa: E402

_write, _dumps = os.write, json.dumps  # bound before any learner code can patch them
_TIMEOUT = {"t": "error", "type": "TimeoutError", "timeout": True}


class _Deadline(BaseException):
    """Raised by SIGALRM when a cell or exercise runs past its wall-clock limit."""


def main() -> int:
    """Run the job read from stdin; return 0 when every step was reported."""
    channel = int(os.environ.pop("COMPANION_GRADER_FD"))
    jobs = os.fdopen(os.dup(0), "rb")
    job = json.loads(jobs.readline())
    _limit_resources(job)
    _detach_stdin()
    signal.signal(signal.SIGALRM, _raise_deadline)
    shell = _make_shell()
    errors = _run_cells(shell, job["cells"], job["notebook_timeout"], channel)
    _emit(channel, {"event": "cells_done", "errors": errors})
    for exercise in json.loads(jobs.readline())["exercises"]:
        _emit(channel, {"event": "start", "id": exercise["id"]})
        outputs = _run_exercise(shell.user_ns, exercise, job["exercise_timeout"])
        _emit(channel, {"event": "exercise", "id": exercise["id"], **outputs})
    _emit(channel, {"event": "done"})
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


def _run_exercise(namespace: dict, exercise: dict, timeout: float) -> dict:
    """Call the graded function on each hidden case within `timeout` seconds in all."""
    function = namespace.get(exercise["id"])
    if function is None:
        return {"status": "missing"}
    if not callable(function):
        return {"status": "not_callable", "type": _type_name(function)}
    outputs, deadline_hit = [], False
    signal.setitimer(signal.ITIMER_REAL, timeout)
    for args in exercise["cases"]:
        outputs.append(dict(_TIMEOUT) if deadline_hit else _run_case(function, args))
        deadline_hit = deadline_hit or outputs[-1].get("timeout", False)
    signal.setitimer(signal.ITIMER_REAL, 0)
    return {"status": "ran", "outputs": outputs}


def _run_case(function, encoded_args: list) -> dict:
    """One call on freshly decoded inputs; its output or exception as plain data."""
    try:
        value = function(*[_decode_input(arg) for arg in encoded_args])
        return _encode_output(value)
    except _Deadline:
        return dict(_TIMEOUT)
    except BaseException as error:  # SystemExit, KeyboardInterrupt too: this case fails, the run goes on
        return _error_node(error)


def _error_node(error: BaseException) -> dict:
    try:
        return {"t": "error", "type": _type_name(error, qualified=False), "message": _describe(error)}
    except _Deadline:
        return dict(_TIMEOUT)


def _decode_input(node: dict):
    """A hidden input as the learner's function receives it."""
    kind = node["t"]
    if kind in ("array", "tensor"):
        array = text_to_array(node["npy"])
        return _companion().constant(array) if kind == "tensor" else array
    if kind == "dtype":
        return _companion().as_dtype(node["name"])
    if kind in ("list", "tuple"):
        items = [_decode_input(item) for item in node["items"]]
        return items if kind == "list" else tuple(items)
    if kind == "none":
        return None
    return {"bool": bool, "int": int, "float": float, "str": str}[kind](node["v"])


def _encode_output(value) -> dict:
    """A returned value as plain data; objects the grader cannot compare keep only their type name."""
    try:
        return encode_plain(value, _encode_object)
    except _Deadline:
        raise
    except BaseException as error:
        return {"t": "unreadable", "type": _type_name(value), "message": _describe(error)}


def _encode_object(value) -> dict:
    name = _type_name(value)
    if name.startswith("companion.") and hasattr(value, "numpy") and hasattr(value, "shape"):
        return {"t": "tensor", "type": name, "npy": array_to_text(value.numpy())}
    if name in ("companion.DType", "numpy.dtype") or name.startswith("numpy.dtypes."):
        return {"t": "dtype", "type": name, "name": str(value.name)}
    return {"t": "object", "type": name}


def _type_name(value, qualified: bool = True) -> str:
    """`companion.Tensor`, `numpy.ndarray`, `float`: the public name of a value's type."""
    kind = type(value)
    module = str(getattr(kind, "__module__", "")).split(".")[0]
    name = str(getattr(kind, "__qualname__", "object"))[:80]
    return name if module in ("builtins", "") or not qualified else f"{module}.{name}"


def _describe(error: BaseException) -> str:
    """`Type: message`, cut to 500 characters; a message that cannot be read in time is left out."""
    timed = signal.getitimer(signal.ITIMER_REAL)[0] == 0  # else the running deadline bounds str()
    try:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 2)
        message = str(error)[:500]
    except _Deadline:
        if not timed:
            raise
        message = "<the exception's message could not be read>"
    except BaseException:
        message = "<the exception's message could not be read>"
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _companion():
    import companion

    return companion


def _emit(channel: int, event: dict) -> None:
    data = (_dumps(event) + "\n").encode()
    while data:
        data = data[_write(channel, data):]


if __name__ == "__main__":
    sys.exit(main())

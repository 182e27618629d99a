"""``companion-launch`` and `launch`: run a training script as several local worker processes.

Each worker runs ``python script.py args...`` with a ``TF_CONFIG`` that names all the
workers (``localhost`` ports) and its own index, so a ``MultiWorkerMirroredStrategy`` in the
script joins the others through ``jax.distributed.initialize``. Each worker also gets
``--xla_force_host_platform_device_count=K`` appended to ``XLA_FLAGS`` (K host devices) and,
unless ``JAX_PLATFORMS`` is already set, ``JAX_PLATFORMS=cpu``: CPU workers then all-reduce
through JAX's cross-process CPU collectives (gloo, JAX's default).

The rules:

- Output: every line a worker writes (stdout or stderr; ``PYTHONUNBUFFERED=1``) is copied to
  the launcher's stdout as ``[worker i] line``; the launcher's own lines start ``[launch]``.
- Failure: when a worker exits with a non-zero code, the others are stopped (SIGTERM to
  their process groups, SIGKILL after 5 s); the launcher names the worker, repeats its last
  stderr lines and returns its code (128 + n for a worker killed by signal n).
- Time limit: workers still running after ``timeout`` seconds (default 600) are stopped and
  the launcher returns 124.
- Start-up: a worker that has neither written a line nor exited within ``startup_timeout``
  seconds (default 120) is taken as hung at start-up (say, waiting for a coordinator that
  never came up); all are stopped and the launcher returns 124. A script that works silently
  for longer should print a line when it starts. 0 or None turns either limit off.
- Ports: by default the system picks a free port for each worker (the ports need not be
  consecutive); with ``port=P`` the workers use P, P+1, ..., which must be free. A port is
  checked free when chosen, then released for the worker to take.
- Restarts: with ``restarts=N`` (``--restarts N``), a failed run is started again, up to N
  times: when a worker fails, the others are stopped as above (collectives cannot go on with
  a peer missing, so the whole cluster restarts) and all the workers are started again with
  the same ``TF_CONFIG``. A script that backs up its progress (``BackupAndRestore`` in
  ``fit``, or a ``CheckpointManager``) then resumes instead of starting over. When the
  restarts are used up, the launcher returns the last failure's code. Time limits end the
  run without a restart; ``timeout`` counts the whole run, restarts included.
- Ctrl-C stops all the workers; the command returns 130 and `launch` re-raises
  ``KeyboardInterrupt``.
- Parameter servers: with ``ps=N`` (``--ps N``) the ``TF_CONFIG`` cluster has a ``chief``
  (the first port), the workers and N ``ps`` tasks, all running the script (output lines
  ``[chief 0]``, ``[worker i]``, ``[ps i]``); the ps and worker tasks start a
  ``tf.distribute.Server`` and wait, the chief runs the ``ParameterServerStrategy`` and its
  ``ClusterCoordinator``. The run ends when the chief ends: with its code, after the other
  tasks are stopped. A worker that fails is only reported (the coordinator runs its
  functions on the other workers, as TensorFlow's does); a ps task that fails stops the run.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time

from companion.distribute._launch_workers import (
    Worker,
    line_writer,
    parameter_server_environments,
    stop_all,
    worker_environments,
    worker_ports,
)

TIMEOUT_EXIT = 124
INTERRUPT_EXIT = 130
GRACE_SECONDS = 5.0
_POLL_SECONDS = 0.05


def launch(script: str | os.PathLike, workers: int = 2, devices_per_worker: int = 1, port: int | None = None,
           args=(), timeout: float | None = 600.0, startup_timeout: float | None = 120.0, stream=None,
           restarts: int = 0, ps: int = 0) -> int:
    """Runs ``script`` as ``workers`` local processes of one cluster and returns the exit code.

    With ``ps=N`` (``--ps N``) the cluster is a parameter-server one: a ``chief`` task, the
    ``workers`` and ``N`` ``ps`` tasks each run ``script`` (see the module docstring).

    See the module docstring for the environment each worker gets and the rules for output,
    failures, restarts, time limits and ports.

    Args:
        script: the Python file every worker runs.
        workers: how many worker processes.
        devices_per_worker: how many XLA host (CPU) devices each worker sees.
        port: the first of the workers' consecutive ports; default: free ports.
        args: command-line arguments for the script.
        timeout: seconds the whole run may take; 0 or None for no limit.
        startup_timeout: seconds within which each worker must write a line or exit; 0 or
            None for no check.
        stream: where the output lines go; default ``sys.stdout`` at the time of the call.
        restarts: how many times to start all the workers again after a worker fails.
        ps: how many ``ps`` tasks; with ps > 0 a ``chief`` task is added and the run ends
            when the chief ends.

    Returns:
        0 when every worker exited with 0 (possibly after restarts); the last failing
        worker's code when the restarts are used up; 124 on a time limit.

    Raises:
        ValueError: an argument is invalid, or a requested port is in use.

    Example:
        ``launch("train.py", workers=2, devices_per_worker=2)`` runs two workers of two
        devices each. Arguments are checked before any process starts:

        >>> from companion.distribute._launch import launch
        >>> launch("train.py", workers=0)
        Traceback (most recent call last):
        ...
        ValueError: `workers` must be a positive integer. Received: workers=0
    """
    _check_arguments(script, workers, devices_per_worker, port, timeout, startup_timeout, restarts, ps)
    write = line_writer(sys.stdout if stream is None else stream)
    ports = worker_ports(workers + (1 + ps if ps else 0), port)
    command = [sys.executable, os.fspath(script), *map(str, args)]
    if ps:
        write(f"[launch] 1 chief, {workers} worker(s) x {devices_per_worker} device(s) and {ps} ps task(s), "
              f"ports {ports}: {' '.join(command[1:])}")
        tasks = parameter_server_environments(ports, workers, ps, devices_per_worker, os.environ)
    else:
        write(f"[launch] {workers} worker(s) x {devices_per_worker} device(s), ports {ports}: "
              f"{' '.join(command[1:])}")
        tasks = [("worker", index, env) for index, env in
                 enumerate(worker_environments(ports, devices_per_worker, os.environ))]
    supervise = _supervise_parameter_servers if ps else _supervise
    deadline = time.monotonic() + timeout if timeout else None
    team = []
    try:
        for attempt in range(restarts + 1):
            if attempt:
                write(f"[launch] restart {attempt} of {restarts}: starting all {workers} worker(s) again "
                      "with the same TF_CONFIG")
            team = [Worker(index, command, env, write, job) for job, index, env in tasks]
            code = supervise(team, deadline, timeout, startup_timeout or None, write, attempt)
            if code in (0, TIMEOUT_EXIT):
                return code
        if restarts:
            write(f"[launch] giving up: the workers failed {restarts + 1} times (restarts={restarts}).")
        return code
    except (KeyboardInterrupt, _Stopped):
        write("[launch] interrupted: stopping the workers")
        raise
    finally:
        stop_all(team, GRACE_SECONDS)


def main(argv: list[str] | None = None) -> int:
    """The ``companion-launch`` command (also ``python -m companion.distribute._launch``).

    Example:
        >>> from companion.distribute._launch import parser
        >>> print(parser().format_usage())
        usage: companion-launch [-h] [--workers N] ... script ...
    """
    cli = parser()
    options = cli.parse_args(argv)
    if not os.path.isfile(options.script):
        cli.error(f"script {options.script!r} not found (looked in {os.getcwd()})")
    in_main_thread = threading.current_thread() is threading.main_thread()
    _STOP_SIGNAL[0] = None
    # A signal only records itself; the supervising loop stops at its next poll. (A KeyboardInterrupt
    # raised inside Popen.poll can leave the Popen's wait lock held, and the launcher then hangs.)
    previous = {number: signal.signal(number, _record_stop) for number in (signal.SIGINT, signal.SIGTERM)} \
        if in_main_thread else {}
    try:
        return launch(options.script, options.workers, options.devices_per_worker, options.port, options.args,
                      options.timeout, options.startup_timeout, restarts=options.restarts, ps=options.ps)
    except ValueError as error:
        cli.error(str(error))
    except KeyboardInterrupt:
        return INTERRUPT_EXIT
    except _Stopped as stopped:
        return 128 + stopped.number
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def parser() -> argparse.ArgumentParser:
    """The command line, with `launch`'s defaults."""
    cli = argparse.ArgumentParser(
        prog="companion-launch",
        description="Run a training script as several local workers of one TF_CONFIG cluster. "
                    "Options go before the script; everything after it is passed to the script.")
    cli.add_argument("--workers", type=_number(int, 1), default=2, metavar="N",
                     help="worker processes (default: 2)")
    cli.add_argument("--devices-per-worker", type=_number(int, 1), default=1, metavar="K",
                     help="XLA host devices per worker (default: 1)")
    cli.add_argument("--port", type=_number(int, 1), default=None, metavar="P",
                     help="first of the workers' consecutive ports (default: free ports)")
    cli.add_argument("--timeout", type=_number(float, 0), default=600.0, metavar="SECONDS",
                     help="stop all workers after this long; 0: no limit (default: 600)")
    cli.add_argument("--startup-timeout", type=_number(float, 0), default=120.0, metavar="SECONDS",
                     help="a worker that writes nothing for this long after starting is taken as hung; "
                          "0: no check (default: 120)")
    cli.add_argument("--restarts", type=_number(int, 0), default=0, metavar="N",
                     help="when a worker fails, stop the others and start all the workers again, up to N "
                          "times (default: 0)")
    cli.add_argument("--ps", type=_number(int, 0), default=0, metavar="N",
                     help="parameter-server tasks: with N > 0 the cluster also has a chief and N ps tasks, "
                          "for ParameterServerStrategy (default: 0)")
    cli.add_argument("script", help="the Python script every worker runs")
    cli.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    return cli


def _supervise(team: list[Worker], deadline: float | None, timeout: float | None,
               startup_timeout: float | None, write, restarted: int) -> int:
    start = time.monotonic()
    while True:
        _stop_if_signalled()
        codes = [worker.returncode for worker in team]
        failed = [worker for worker, code in zip(team, codes) if code not in (None, 0)]
        if failed:
            return _fail(team, failed[0], write)
        if all(code == 0 for code in codes):
            _flush(team)
            after = f" after {restarted} restart(s)" if restarted else ""
            write(f"[launch] all {len(team)} worker(s) finished{after}")
            return 0
        elapsed = time.monotonic() - start
        if deadline is not None and time.monotonic() > deadline:
            return _time_out(team, f"the workers did not all finish within timeout={timeout:g} s", write)
        silent = [w.index for w in team if w.returncode is None and not w.has_output.is_set()]
        if startup_timeout is not None and elapsed > startup_timeout and silent:
            return _time_out(team, _hung_message(silent, startup_timeout), write)
        time.sleep(_POLL_SECONDS)


def _supervise_parameter_servers(team: list[Worker], deadline: float | None, timeout: float | None,
                                  startup_timeout: float | None, write, restarted: int) -> int:
    """A parameter-server cluster: the chief's end ends the run; a lost worker is only reported
    (the chief's coordinator reschedules its functions); a lost ps task fails the run."""
    start = time.monotonic()
    chief, lost = team[0], set()
    while True:
        _stop_if_signalled()
        if chief.returncode is not None:
            if chief.returncode:
                return _fail(team, chief, write)
            stop_all(team, GRACE_SECONDS)
            _flush(team)
            write("[launch] the chief finished; stopped the worker and ps tasks")
            return 0
        for task in team[1:]:
            if task.returncode is not None and task.name not in lost:
                if task.job == "ps":
                    return _fail(team, task, write)
                lost.add(task.name)
                write(f"[launch] {task.name} {_how(task.returncode)}; the chief's coordinator runs its "
                      "functions on the other workers")
        if deadline is not None and time.monotonic() > deadline:
            return _time_out(team, f"the chief did not finish within timeout={timeout:g} s", write)
        silent = [w.name for w in team if w.returncode is None and not w.has_output.is_set()]
        if startup_timeout is not None and time.monotonic() - start > startup_timeout and silent:
            return _time_out(team, _hung_message(silent, startup_timeout), write)
        time.sleep(_POLL_SECONDS)


def _how(code: int) -> str:
    return f"exited with code {code}" if code > 0 else f"was killed by signal {_signal_name(-code)}"


def _fail(team: list[Worker], failed: Worker, write) -> int:
    stop_all(team, GRACE_SECONDS)
    _flush(team)
    code = failed.returncode
    others = "workers" if failed.job == "worker" and len({t.job for t in team}) == 1 else "tasks"
    write(f"[launch] {failed.name} {_how(code)}; stopped the other {others}.")
    if failed.stderr_tail:
        write(f"[launch] the last lines {failed.name} wrote to stderr:")
        for line in failed.stderr_tail:
            write(f"[launch]   {line}")
    return code if code > 0 else 128 - code


def _time_out(team: list[Worker], reason: str, write) -> int:
    stop_all(team, GRACE_SECONDS)
    _flush(team)
    write(f"[launch] {reason}; stopped all workers.")
    return TIMEOUT_EXIT


def _hung_message(silent: list[int], startup_timeout: float) -> str:
    return (f"worker(s) {silent} wrote nothing within startup_timeout={startup_timeout:g} s and are taken "
            f"as hung at start-up. A script that works silently for long should print a line when it "
            f"starts, or raise the start-up timeout")


def _flush(team: list[Worker]) -> None:
    for worker in team:
        worker.join_output(2.0)


def _check_arguments(script, workers, devices_per_worker, port, timeout, startup_timeout, restarts,
                     ps=0) -> None:
    for name, value in (("workers", workers), ("devices_per_worker", devices_per_worker)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"`{name}` must be a positive integer. Received: {name}={value!r}")
    if isinstance(ps, bool) or not isinstance(ps, int) or ps < 0:
        raise ValueError("`ps` must be an integer >= 0 (how many parameter-server tasks; 0 for a "
                         f"MultiWorkerMirroredStrategy cluster). Received: ps={ps!r}")
    if isinstance(restarts, bool) or not isinstance(restarts, int) or restarts < 0:
        raise ValueError("`restarts` must be an integer >= 0 (how many times to start all the workers again "
                         f"after a failure). Received: restarts={restarts!r}")
    tasks = workers + (1 + ps if ps else 0)
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)
                             or not 1 <= port <= 65536 - tasks):
        raise ValueError(f"`port` must be None or an integer from 1 to {65536 - tasks} (the first of "
                         f"{tasks} consecutive ports). Received: port={port!r}")
    for name, value in (("timeout", timeout), ("startup_timeout", startup_timeout)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value < 0):
            raise ValueError(f"`{name}` must be a number of seconds >= 0, or None. "
                             f"Received: {name}={value!r}")
    if not os.path.isfile(script):
        raise ValueError(f"`script` must be a Python file. Received: script={os.fspath(script)!r}, "
                         f"which does not exist (looked in {os.getcwd()})")


def _number(kind: type, least: float):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or value < least:
            raise argparse.ArgumentTypeError(f"expected {'an integer' if kind is int else 'a number'} "
                                             f">= {least}, received {text!r}")
        return value
    return parse


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


class _Stopped(Exception):
    """The command was sent SIGINT or SIGTERM; raised by the supervising loop between two polls."""

    def __init__(self, number: int):
        super().__init__(f"stopped by signal {_signal_name(number)}")
        self.number = number


_STOP_SIGNAL: list[int | None] = [None]  # set by the command's signal handler


def _record_stop(number, frame) -> None:
    _STOP_SIGNAL[0] = number


def _stop_if_signalled() -> None:
    if _STOP_SIGNAL[0] is not None:
        raise _Stopped(_STOP_SIGNAL[0])


if __name__ == "__main__":
    sys.exit(main())

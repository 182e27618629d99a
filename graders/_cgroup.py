"""A cgroup of its own for each sandboxed child: CPU shared per submission, and a bound on its tasks.

CPU: without it, a submission that starts 100 busy processes takes 100 shares of the machine and the
honest submission graded beside it runs out of time. With each child (and everything it forks) in a
cgroup of its own, the kernel's scheduler splits the CPUs between the cgroups equally.

Tasks: the same cgroup (a `pids` one) bounds how many processes and threads the child and
everything it forks may run at once (MAX_TASKS), so a fork bomb is refused (fork and thread creation
fail with EAGAIN) long before it exhausts the machine's PIDs. RLIMIT_NPROC cannot do this: every
child runs as the same user (nobody), so one submission would eat the others' allowance.

Works with cgroup v2 (the `cpu` and `pids` controllers we may delegate) and v1 (writable `cpu` and
`pids` hierarchies, one group in each); where a controller cannot be written (no root, a read-only
/sys/fs/cgroup), grading goes on without it and `describe()` says so.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

V2_ROOT = Path("/sys/fs/cgroup")
V1_ROOT = Path("/sys/fs/cgroup")
PARENT_NAME = "companion-grade"
CONTROLLERS = ("cpu", "pids")
_V1_MARKERS = {"cpu": "cpu.shares", "pids": "pids.max"}  # a file each group of that hierarchy has
# Processes plus threads (each thread takes a PID) of one child and all it forks. Measured (pids.peak)
# on 2 cores: an honest grading child of c2w4 (JAX, 4 forced host devices) peaks at 40 tasks. JAX's
# CPU thread pools grow by about 2-4 threads per core, so a 128-core machine needs some hundreds:
# 2048 leaves wide headroom, and is far from the kernel's usual pid_max (32768).
MAX_TASKS = 2048
MAX_TASKS_VARIABLE = "COMPANION_GRADER_MAX_TASKS"  # the grader's environment may set another bound
LEAST_TASKS = 64  # an honest child needs about 40
# Children graded at once share half of the machine's PIDs: with 16 children of 2048 tasks each, fork
# bombs in all of them would take every PID of a kernel whose pid_max is 32768, the grader's own
# threads included. Each child gets its own share, so no submission can take another's.
PID_SHARE = 2
_KERNEL_LIMITS = (Path("/proc/sys/kernel/pid_max"), Path("/proc/sys/kernel/threads-max"))
_at_once = [1]  # children graded at once in this process (`children_at_once`)


def machine_tasks() -> int:
    """How many processes and threads the kernel allows in all (the smaller of pid_max and threads-max)."""
    found = []
    for path in _KERNEL_LIMITS:
        try:
            found.append(int(path.read_text()))
        except (OSError, ValueError):
            pass
    return min(found, default=32768)


@contextlib.contextmanager
def children_at_once(count: int):
    """While a batch grades `count` submissions at once: each child's bound is its share of the machine."""
    before, _at_once[0] = _at_once[0], max(1, int(count))
    try:
        yield
    finally:
        _at_once[0] = before


def max_tasks() -> int:
    """The bound on one child's processes and threads: COMPANION_GRADER_MAX_TASKS when set, else MAX_TASKS
    or, when smaller, the child's share of the machine (`machine_tasks() / PID_SHARE` split between the
    children graded at once), never below LEAST_TASKS."""
    text = os.environ.get(MAX_TASKS_VARIABLE)
    if text is None:
        share = machine_tasks() // (PID_SHARE * _at_once[0])
        return max(LEAST_TASKS, min(MAX_TASKS, share))
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < LEAST_TASKS:
        raise ValueError(f"{MAX_TASKS_VARIABLE} must be a whole number of at least {LEAST_TASKS} (an honest "
                         f"grading child runs about 40 processes and threads); it is {text!r}. Unset it to "
                         f"use the default, {MAX_TASKS}.")
    return value


def task_limit_text() -> str:
    """Why a learner's code could not start a process or thread, for their feedback."""
    return (f"it could not start another process or thread: a submission may run at most {max_tasks()} "
            "processes and threads at once, within its memory limit")


@dataclass(frozen=True)
class Group:
    """One child's cgroup: its folder in each hierarchy (one on v2), and the one bounding its tasks."""

    folders: tuple[Path, ...]
    pids: Path | None


@functools.cache
def bases() -> dict[str, Path]:
    """For each controller of CONTROLLERS that can be written here, the folder under which per-child
    groups are made (v2 first; a controller v2 does not give is looked for in its v1 hierarchy)."""
    try:
        found = _v2_bases()
    except OSError:
        found = {}
    for controller in CONTROLLERS:
        if controller not in found:
            try:
                folder = _v1_base(controller)
            except OSError:
                folder = None
            if folder is not None:
                found[controller] = folder
    return found


def available() -> bool:
    """Whether each child gets a CPU cgroup of its own."""
    return "cpu" in bases()


def limits_tasks() -> bool:
    """Whether each child's processes and threads are bounded by MAX_TASKS."""
    return "pids" in bases()


def describe() -> str:
    """One line for the CLI saying what the cgroups enforce here."""
    found = bases()
    cpu = ("CPU time shared per submission" if "cpu" in found
           else "NO CPU cgroup (not writable here): CPU time is shared per process")
    pids = (f"at most {max_tasks()} processes and threads per submission" if "pids" in found
            else "NO pids cgroup (not writable here): a submission can start processes until the machine "
                 "runs out of PIDs")
    return f"{cpu}; {pids}"


def _v2_bases() -> dict[str, Path]:
    offered = (V2_ROOT / "cgroup.controllers").read_text().split()
    folder, found = V2_ROOT / PARENT_NAME, {}
    for controller in CONTROLLERS:
        if controller in offered:
            try:
                folder.mkdir(exist_ok=True)
                (V2_ROOT / "cgroup.subtree_control").write_text(f"+{controller}")
                (folder / "cgroup.subtree_control").write_text(f"+{controller}")
            except OSError:
                continue
            found[controller] = folder
    if found:
        _sweep(folder)
    return found


def _v1_base(controller: str) -> Path | None:
    root = V1_ROOT / controller
    if not (root / "tasks").exists():  # not a v1 hierarchy (on v2 this would make a cgroup named so)
        return None
    folder = root / PARENT_NAME
    folder.mkdir(exist_ok=True)
    probe = folder / f"probe-{uuid.uuid4().hex[:8]}"
    probe.mkdir()
    try:
        if not (probe / _V1_MARKERS[controller]).exists():
            return None
    finally:
        probe.rmdir()
    _sweep(folder)
    return folder


def new_group() -> Group | None:
    """A fresh cgroup for one child (equal CPU weight to its siblings, at most MAX_TASKS tasks), or None."""
    found = bases()
    name = f"child-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    folders = []
    for base in dict.fromkeys(found.values()):
        try:
            (base / name).mkdir()
        except OSError:
            continue
        folders.append(base / name)
    pids = found["pids"] / name if "pids" in found else None
    if pids is not None and pids in folders:
        try:
            (pids / "pids.max").write_text(str(max_tasks()))
        except OSError:
            pids = None
    else:
        pids = None
    return Group(tuple(folders), pids) if folders else None


def entering(group: Group | None, argv: list[str]) -> list[str]:
    """`argv`, started by a shell that first moves itself into each folder of `group` and then execs it.

    The shell still runs in the grader's PID namespace, so `$$` is its real pid, and everything it
    becomes or starts (the sandbox, the child, whatever the child forks) stays in the cgroup. This
    avoids a `preexec_fn`, which is unsafe in a process with threads (JAX's).
    """
    if group is None:
        return argv
    script = 'while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" 2>/dev/null; shift; done; shift; exec "$@"'
    return ["/bin/sh", "-c", script, "sh", *map(str, group.folders), "--", *argv]


def move(group: Group | None, pid: int) -> None:
    """Put the single-threaded process `pid` (not yet started on any work) into `group`."""
    for folder in group.folders if group is not None else ():
        try:
            (folder / "cgroup.procs").write_text(str(pid))
        except OSError:
            pass


def tasks_refused(group: Group | None) -> bool:
    """Whether the child was refused a process or thread because it had MAX_TASKS running."""
    if group is None or group.pids is None:
        return False
    try:
        events = dict(line.split() for line in (group.pids / "pids.events").read_text().splitlines())
        return int(events.get("max", 0)) > 0
    except (OSError, ValueError):
        return False


def refused_a_task(error: str) -> bool:
    """Whether an error the child reported (`Type: message`) is Python's refusal of a new process or thread:
    what learner code gets when its cgroup has MAX_TASKS running (fork and clone fail with EAGAIN)."""
    return error.startswith(("BlockingIOError: [Errno 11]", "RuntimeError: can't start new thread"))


def remove(group: Group | None, attempts: int = 30) -> None:
    """Delete a child's cgroup once the last process of the sandbox's PID namespace has gone."""
    for folder in group.folders if group is not None else ():
        _remove(folder, attempts)


def _remove(folder: Path, attempts: int) -> None:
    for _ in range(attempts):
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.1)


def _sweep(folder: Path) -> None:
    """Remove cgroups left by graders that have exited (a killed grader cannot clean up)."""
    for group in folder.glob("child-*"):
        owner = group.name.split("-")[1]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            _remove(group, attempts=1)

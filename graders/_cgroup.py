"""A CPU cgroup of its own for each sandboxed child, so CPU time is shared per submission, not per process.

Without it, a submission that starts 100 busy processes takes 100 shares of the machine and the
honest submission graded beside it runs out of time. With each child (and everything it forks) in a
cgroup of its own, the kernel's scheduler splits the CPUs between the cgroups equally. Works with
cgroup v2 (a `cpu` controller we may delegate) and v1 (a writable `cpu` hierarchy); where neither
can be written (no root, a read-only /sys/fs/cgroup), `available()` is False and the grader says so.
"""

from __future__ import annotations

import functools
import os
import time
import uuid
from pathlib import Path

V2_ROOT = Path("/sys/fs/cgroup")
V1_CPU = Path("/sys/fs/cgroup/cpu")
PARENT_NAME = "companion-grade"


@functools.cache
def base() -> Path | None:
    """The folder under which per-child cgroups are made, or None when none can be."""
    for candidate in (_v2_base, _v1_base):
        try:
            folder = candidate()
        except OSError:
            folder = None
        if folder is not None:
            return folder
    return None


def available() -> bool:
    return base() is not None


def _v2_base() -> Path | None:
    if "cpu" not in (V2_ROOT / "cgroup.controllers").read_text().split():
        return None
    folder = V2_ROOT / PARENT_NAME
    folder.mkdir(exist_ok=True)
    (V2_ROOT / "cgroup.subtree_control").write_text("+cpu")
    (folder / "cgroup.subtree_control").write_text("+cpu")
    _sweep(folder)
    return folder


def _v1_base() -> Path | None:
    if not (V1_CPU / "cpu.shares").exists():
        return None
    folder = V1_CPU / PARENT_NAME
    folder.mkdir(exist_ok=True)
    probe = folder / f"probe-{uuid.uuid4().hex[:8]}"
    probe.mkdir()
    probe.rmdir()
    _sweep(folder)
    return folder


def new_group() -> Path | None:
    """A fresh cgroup for one child (equal CPU weight to its siblings), or None."""
    folder = base()
    if folder is None:
        return None
    group = folder / f"child-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    try:
        group.mkdir()
    except OSError:
        return None
    return group


def entering(group: Path | None, argv: list[str]) -> list[str]:
    """`argv`, started by a shell that first moves itself into `group` and then execs it.

    The shell still runs in the grader's PID namespace, so `$$` is its real pid, and everything it
    becomes or starts (the sandbox, the child, whatever the child forks) stays in the cgroup. This
    avoids a `preexec_fn`, which is unsafe in a process with threads (JAX's).
    """
    if group is None:
        return argv
    script = 'echo $$ > "$1/cgroup.procs" 2>/dev/null; shift; exec "$@"'
    return ["/bin/sh", "-c", script, "sh", str(group), *argv]


def move(group: Path | None, pid: int) -> None:
    """Put the single-threaded process `pid` (not yet started on any work) into `group`."""
    if group is not None:
        try:
            (group / "cgroup.procs").write_text(str(pid))
        except OSError:
            pass


def remove(group: Path | None, attempts: int = 30) -> None:
    """Delete a child cgroup once the last process of the sandbox's PID namespace has gone."""
    for _ in range(attempts if group is not None else 0):
        try:
            group.rmdir()
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
            remove(group, attempts=1)

"""The warm pool's zygote: imports the child's libraries once, then forks one sandboxed child per submission.

Started by `_pool` as `python -I -B _zygote.py MODE` inside a per-batch sandbox (the same allow-listed
read-only root, hidden paths covered, no network) but still privileged there, so it can make more
namespaces. It imports NumPy, JAX, companion, IPython, matplotlib and `graders._child` WITHOUT
starting a JAX backend (no XLA threads exist when it forks), says "ready", and then, for each request
on its control socket (three fds: the job pipe, the log pipe, the event channel), forks a child that:

1. takes the fds as stdin, stdout/stderr and fd 3, closes every other fd, and waits until the grader
   has moved it into its own cgroup (the grader writes the job only after that);
2. makes new mount, PID, network, IPC and UTS namespaces (nested in the batch's), with private mount
   propagation, and becomes a tiny waiter process outside the new PID namespace;
3. its child, PID 1 of the new namespace, forks the worker and becomes a tiny init that exits (killing
   the namespace) when the worker exits, as the shell of a non-pooled sandbox does;
4. the worker mounts a fresh /proc (of its own PID namespace), fresh tmpfs /tmp, /dev/shm and work
   folder over the batch's (the fresh /tmp keeps the batch's read-only binds of a repository or venv
   that lies under /tmp), so nothing another submission wrote or started is visible, drops every
   capability (and, as root, becomes uid/gid nobody) with no_new_privs, re-seeds NumPy's global
   generator, and runs `_child.main()` on exactly one submission, then exits.

The zygote never runs submission code; every child is a copy-on-write fork of it, so no module state,
file or process of one submission survives into another.
"""

import ctypes
import gc
import os
import re
import select
import socket
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_MOVE, MS_REC, MS_PRIVATE = 2, 4, 8, 8192, 16384, 1 << 18
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 38, 47, 4
CAPABILITY_VERSION_3 = 0x20080522
NOBODY = 65534
CHANNEL = 3
# Exits with the status of the child it is given (128+N for a signal), reaping every other process
# first: as PID 1 of a namespace it is the reaper of orphans, and its exit kills what is left.
WAITER = """import os, sys
target, code = int(sys.argv[1]), 70
while True:
    try:
        pid, status = os.wait()
    except ChildProcessError:
        break
    if pid == target:
        code = os.waitstatus_to_exitcode(status)
        code = 128 - code if code < 0 else code
        break
sys.exit(code)
"""

_libc = ctypes.CDLL(None, use_errno=True)


def main() -> int:
    mode = sys.argv[1]
    control = socket.socket(fileno=int(os.environ.pop("COMPANION_ZYGOTE_FD")))
    _preload()
    control.send(b"ready")
    jobs: dict[int, str] = {}
    while True:
        ready, _, _ = select.select([control], [], [], 0.05)
        _reap(control, jobs)
        if not ready:
            continue
        message, fds, _, _ = socket.recv_fds(control, 256, 3)
        if not message:
            return 0
        job = message.decode().split()[1]
        pid = os.fork()
        if pid == 0:
            _child(mode, fds, control)
        for fd in fds:
            os.close(fd)
        jobs[pid] = job
        control.send(f"pid {job} {pid}".encode())


def _preload() -> None:
    """Import what every child needs; JAX's backend must not start here (its threads do not fork)."""
    import IPython.core.interactiveshell  # noqa: F401
    import jax  # noqa: F401
    import matplotlib
    import numpy  # noqa: F401
    import traitlets.config  # noqa: F401

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    from jax._src import xla_bridge

    import companion  # noqa: F401
    import graders._child

    graders._child.prepare()  # the harnesses and the snapshot of their code, shared by every child

    if getattr(xla_bridge, "_backends", None):
        raise RuntimeError("importing the child's libraries started a JAX backend; forking it is unsafe")
    gc.collect()
    gc.freeze()  # the children's collector skips (and so never copies) the zygote's objects


def _reap(control: socket.socket, jobs: dict[int, str]) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in jobs:
            control.send(f"exit {jobs.pop(pid)} {os.waitstatus_to_exitcode(status)}".encode())


def _child(mode: str, fds: list[int], control: socket.socket) -> None:
    """The forked child (see the module's docstring); never returns."""
    try:
        control.close()
        os.setsid()
        job, log, channel = (os.dup(fd) for fd in fds)
        for target, fd in ((0, job), (1, log), (2, log), (CHANNEL, channel)):
            os.dup2(fd, target)
        os.closerange(CHANNEL + 1, os.sysconf("SC_OPEN_MAX"))
        os.environ["COMPANION_GRADER_FD"] = str(CHANNEL)
        select.select([0], [], [])  # the grader writes the job once this process is in its cgroup
        namespaces = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
        _check(_libc.unshare(namespaces), "unshare")
        _mount(None, "/", None, MS_REC | MS_PRIVATE)
        if (pid := os.fork()) != 0:
            _become_waiter(pid)
        if (pid := os.fork()) != 0:  # this process is PID 1 of the new namespace
            _become_waiter(pid)
        _enter_sandbox(mode)
        import numpy

        numpy.random.seed()  # each child its own unseeded stream, as a fresh process would have
        from graders import _child as child

        code = child.main()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    except BaseException:  # noqa: BLE001 - report, and never return into the zygote's loop
        try:
            traceback.print_exc()
            sys.stderr.flush()
        finally:
            os._exit(70)


def _become_waiter(pid: int) -> None:
    """Replace this copy of the zygote by a small process that waits for `pid` (and reaps orphans)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(CHANNEL, os.sysconf("SC_OPEN_MAX"))
    os.execv(sys.executable, [sys.executable, "-I", "-S", "-B", "-c", WAITER, str(pid)])


def _enter_sandbox(mode: str) -> None:
    """Fresh /proc, /tmp, /dev/shm and work folder for this child only; then no privileges."""
    work = os.getcwd()
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    _fresh_tmp(work)
    for path, size in (("/dev/shm", "64m"), (work, "512m")):
        os.makedirs(path, mode=0o755, exist_ok=True)  # the work folder may lie in the fresh /tmp
        _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=1777")
    os.chdir(work)  # the fresh tmpfs, not the batch's folder under it
    last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    for capability in range(last + 1):
        _check(_libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0), "dropping a capability")
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if mode == "root":
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    _check(_libc.capset(header, (ctypes.c_uint32 * 6)()), "clearing capabilities")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def _fresh_tmp(work: str) -> None:
    """A fresh, empty tmpfs /tmp that still holds the batch's read-only binds that lie under /tmp.

    When the repository or the venv lives under /tmp (a checkout in a temporary folder), the batch's
    sandbox binds them there; a plain new tmpfs over /tmp would hide them and the child could not
    import its own libraries. So the new tmpfs is mounted beside them first, each such bind is moved
    into it at the same path, and then the new tmpfs is moved over /tmp. Nothing else of the old /tmp
    (other submissions' files, the batch's work folder) stays reachable.
    """
    staging = f"/tmp/.fresh-tmp-{os.urandom(8).hex()}"  # PIDs repeat: each child has its own namespace
    os.mkdir(staging, 0o700)
    _mount("tmpfs", staging, "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777")
    for point in _mounts_under("/tmp", skip=(staging, work)):
        target = staging + point[len("/tmp"):]
        os.makedirs(target, mode=0o755, exist_ok=True)
        _mount(point, target, None, MS_MOVE)
    _mount(staging, "/tmp", None, MS_MOVE)


def _mounts_under(top: str, skip: tuple[str, ...]) -> list[str]:
    """Mount points strictly below `top`, outermost only (a moved mount takes its sub-mounts along)."""
    points: list[str] = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), line.split()[4])  # "\\040": a space
        if point.startswith(f"{top}/") and not any(point == x or point.startswith(f"{x}/") for x in skip):
            points.append(point)
    return [p for p in dict.fromkeys(points) if not any(p.startswith(q + "/") for q in points)]


def _mount(source, target, kind, flags, data=None) -> None:
    source, target, kind, data = (None if text is None else str(text).encode()
                                  for text in (source, target, kind, data))
    _check(_libc.mount(source, target, kind, ctypes.c_ulong(flags), data), f"mounting {target.decode()}")


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what} failed: {os.strerror(error)}")


if __name__ == "__main__":
    sys.exit(main())

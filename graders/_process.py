"""A started child process: bounded capture of its output, an RSS watchdog, and a kill that takes its tree."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

from graders import _cgroup as cgroup
from graders._cgroup import task_limit_text

LOG_TAIL_BYTES = 64 * 1024
WATCH_INTERVAL = 0.2


class ChildProcess:
    """`argv` started in its own session; stdout+stderr drained into a bounded tail; RSS watched."""

    def __init__(self, argv: list[str], env: dict, cwd: Path, pass_fds: tuple[int, ...], memory_mb: int):
        group = cgroup.new_group()
        process = subprocess.Popen(cgroup.entering(group, argv), stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                   pass_fds=pass_fds, start_new_session=True)
        self._begin(process, group, memory_mb)

    @classmethod
    def adopt(cls, process, group: cgroup.Group | None, memory_mb: int) -> ChildProcess:
        """Watch a child started elsewhere (the warm pool's): `process` has Popen's pid, stdin, stdout,
        poll and wait, leads its own process group, and is already in `group`."""
        child = cls.__new__(cls)
        child._begin(process, group, memory_mb)
        return child

    def _begin(self, process, group: cgroup.Group | None, memory_mb: int) -> None:
        self.cgroup, self.process = group, process
        self.killed_for: str | None = None
        self.tasks_refused = False  # known once finished: it hit the cgroup's bound on processes/threads
        self.printed_bytes = 0
        self._tail = b""
        self._memory_bytes = memory_mb * 2**20
        threading.Thread(target=self._drain, daemon=True).start()
        threading.Thread(target=self._watch_memory, daemon=True).start()

    def send(self, data: bytes) -> None:
        """Write `data` to the child's stdin from a thread (a child that stops reading cannot block us)."""
        threading.Thread(target=self._send, args=(data,), daemon=True).start()

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self, reason: str) -> None:
        """Kill the whole process group (and so the sandbox's PID namespace); remember why."""
        self.killed_for = self.killed_for or reason
        for pid in [self.process.pid, *_descendants(self.process.pid)]:
            try:
                os.killpg(pid, signal.SIGKILL) if pid == self.process.pid else os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def finish(self, grace: float = 5.0) -> int:
        """Wait up to `grace` seconds for the exit (killing after that); return the exit status."""
        try:
            return self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill("did not exit after its work was done")
            return self.process.wait()
        finally:
            self.tasks_refused = cgroup.tasks_refused(self.cgroup)
            cgroup.remove(self.cgroup)

    def log(self) -> str:
        """The last LOG_TAIL_BYTES of what the child printed (for instructors, never for learners)."""
        cut = self.printed_bytes - len(self._tail)
        head = f"[... {cut} earlier bytes of output not kept ...]\n" if cut else ""
        return head + self._tail.decode("utf-8", "replace")

    def _send(self, data: bytes) -> None:
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def _drain(self) -> None:
        while chunk := self.process.stdout.read1(65536):
            self.printed_bytes += len(chunk)
            self._tail = (self._tail + chunk)[-LOG_TAIL_BYTES:]

    def _watch_memory(self) -> None:
        while self.alive():
            if tree_rss(self.process.pid) > self._memory_bytes:
                self.kill("memory")
                return
            time.sleep(WATCH_INTERVAL)


def tree_rss(pid: int) -> int:
    """Resident memory in bytes of `pid` and all its descendants (0 once gone)."""
    page = os.sysconf("SC_PAGE_SIZE")
    return sum(_resident_pages(member) * page for member in [pid, *_descendants(pid)])


def _resident_pages(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _descendants(pid: int) -> list[int]:
    """Every process whose chain of parents leads to `pid`, from a scan of /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            parent = _parent_pid(entry.name)
            if parent is not None:
                children.setdefault(parent, []).append(int(entry.name))
    found, queue = [], list(children.get(pid, []))
    while queue:
        found.append(queue.pop())
        queue += children.get(found[-1], [])
    return found


def _parent_pid(name: str) -> int | None:
    try:
        stat = Path(f"/proc/{name}/stat").read_text()
        return int(stat[stat.rindex(")") + 2:].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def exit_reason(status: int, killed_for: str | None, memory_mb: int, tasks_refused: bool = False) -> str:
    """Why a child stopped, in words a learner understands."""
    reason = _exit_reason(status, killed_for, memory_mb)
    if tasks_refused:
        return (f"{reason}. Before that, {task_limit_text()} (native code such as JAX's stops the process "
                "when it cannot start a thread)")
    return reason


def _exit_reason(status: int, killed_for: str | None, memory_mb: int) -> str:
    if killed_for == "memory":
        return f"used more than the {memory_mb} MB memory limit and was stopped"
    if killed_for:
        return killed_for
    signal_number = -status if status < 0 else status - 128 if status > 128 else None
    if signal_number == signal.SIGXCPU:
        return "used more than its CPU-time limit and was stopped"
    if signal_number is not None:
        return (f"was killed by signal {signal_number} ({signal.strsignal(signal_number)}); running out of "
                "memory, os.kill or a crash in native code can cause this")
    return f"exited with code {status} (a call to os._exit or a crash of the Python process)"

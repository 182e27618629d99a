"""A warm pool for a batch: one zygote that has imported the child's libraries forks a child per submission.

Starting a child costs a Python start-up and importing NumPy, JAX, companion and IPython (about a
second of CPU) before any submission code runs. In a batch, `ForkServer` pays that once: it starts
`_zygote.py` inside a per-batch sandbox, and `spawn` asks it for a forked child that enters fresh
namespaces of its own, grades exactly one submission and dies (see `_zygote`'s docstring for the
isolation steps). The child comes back as a `ChildProcess`, so the runner treats it as any other:
same deadlines, memory watchdog, CPU cgroup, kill of its whole tree and exit status.

Only the sandboxed modes (``root``, ``userns``) use the pool; $COMPANION_GRADER_POOL=0 turns it off.
"""

from __future__ import annotations

import itertools
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from graders import _cgroup as cgroup
from graders._errors import SandboxError
from graders._limits import STARTUP_GRACE, Limits
from graders._process import ChildProcess, _descendants
from graders._runner import _child_env, _layout
from graders._sandbox import child_command, sandbox_mode

ZYGOTE = Path(__file__).resolve().with_name("_zygote.py")
LOG_TAIL_BYTES = 16 * 1024


class PoolError(SandboxError):
    """The warm pool could not start or fork a child (the caller starts a fresh process instead)."""


def pool_enabled() -> bool:
    """Whether batches use a warm pool here: a sandboxed mode, and $COMPANION_GRADER_POOL is not 0."""
    return sandbox_mode() in ("root", "userns") and os.environ.get("COMPANION_GRADER_POOL", "1") != "0"


class ForkServer:
    """A running zygote for one batch (one assignment's limits and hidden paths); `close()` ends it."""

    def __init__(self, limits: Limits, hidden: tuple[Path, ...]):
        self._scratch = tempfile.TemporaryDirectory(prefix="companion-pool-")
        layout = _layout(Path(self._scratch.name), hidden)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = _child_env(layout.work, theirs.fileno(), limits.host_devices)
        env["COMPANION_ZYGOTE_FD"] = env.pop("COMPANION_GRADER_FD")
        mode = sandbox_mode()
        argv = child_command(mode, layout, [sys.executable, "-I", "-B", str(ZYGOTE), mode], drop=False)
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, env=env, cwd=layout.work,
                                        pass_fds=(theirs.fileno(),), start_new_session=True)
        theirs.close()
        self._socket, self._lock, self._ids = ours, threading.Lock(), itertools.count()
        self._replies: dict[str, queue.Queue] = {}
        self._exits: dict[str, int] = {}
        self._exited = threading.Condition()
        self._tail = b""
        threading.Thread(target=self._drain, daemon=True).start()
        self._socket.settimeout(STARTUP_GRACE)
        try:
            ready = self._socket.recv(64)
        except OSError:
            ready = b""
        self._socket.settimeout(None)
        if ready != b"ready":
            self.close()
            raise PoolError("the grading pool's zygote did not start: "
                            + self._tail.decode("utf-8", "replace")[-2000:])
        threading.Thread(target=self._listen, daemon=True).start()

    def spawn(self, channel: int, memory_mb: int) -> ChildProcess:
        """A forked child for one run: its stdin takes the job, fd 3 (`channel`) its events."""
        job = str(next(self._ids))
        replies = self._replies[job] = queue.Queue()
        job_read, job_write = os.pipe()
        log_read, log_write = os.pipe()
        try:
            with self._lock:
                socket.send_fds(self._socket, [f"fork {job}".encode()], [job_read, log_write, channel])
        except OSError as error:
            os.close(job_write)
            os.close(log_read)
            raise PoolError(f"the grading pool's zygote is gone ({error})") from None
        finally:
            os.close(job_read)
            os.close(log_write)
        process = _Forked(self, job, job_write, log_read)
        inner, deadline = None, time.monotonic() + STARTUP_GRACE
        while inner is None and self.process.poll() is None and time.monotonic() < deadline:
            try:
                inner = replies.get(timeout=0.5)
            except queue.Empty:
                pass
        if inner is None:
            raise PoolError("the grading pool's zygote did not fork a child (it exited or stalled)")
        process.pid = self._host_pid(inner)
        group = cgroup.new_group()
        cgroup.move(group, process.pid)  # before the job is sent: the child waits for it to go on
        return ChildProcess.adopt(process, group, memory_mb)

    def close(self) -> None:
        """End the zygote and, with its sandbox's PID namespace, any child still running."""
        try:  # shutdown, not only close: `_listen` is blocked in recv on this socket, which keeps it
            self._socket.shutdown(socket.SHUT_RDWR)  # open (no end of file for the zygote) until it returns
        except OSError:
            pass
        self._socket.close()  # the zygote exits at the end of its requests
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            for pid in [self.process.pid, *_descendants(self.process.pid)]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            self.process.wait()
        finally:
            self._scratch.cleanup()

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def exit_status(self, job: str, timeout: float | None) -> int | None:
        with self._exited:
            self._exited.wait_for(lambda: job in self._exits or self.process.poll() is not None, timeout)
            if job not in self._exits and self.process.poll() is not None:
                return -9  # the zygote's sandbox died, and every child in it
            return self._exits.get(job)

    def _host_pid(self, inner: int) -> int:
        """The grader's pid of the zygote's child `inner` (its pid in the batch's PID namespace)."""
        for pid in _descendants(self.process.pid):
            if _namespace_pids(pid)[1:] == [inner]:
                return pid
        raise PoolError(f"the grading pool's child {inner} was not found")

    def _listen(self) -> None:
        while True:
            try:
                message = self._socket.recv(256)
            except OSError:
                message = b""
            if not message:
                break
            kind, job, number = message.decode().split()
            if kind == "pid":
                self._replies.pop(job).put(int(number))
            else:
                with self._exited:
                    self._exits[job] = int(number)
                    self._exited.notify_all()
        with self._exited:
            self._exited.notify_all()

    def _drain(self) -> None:
        while chunk := self.process.stdout.read1(65536):
            self._tail = (self._tail + chunk)[-LOG_TAIL_BYTES:]


class _Forked:
    """The `subprocess.Popen` surface `ChildProcess` uses, for a child the zygote forked."""

    def __init__(self, server: ForkServer, job: str, stdin: int, stdout: int):
        self.server, self.job, self.pid = server, job, -1
        self.stdin, self.stdout = open(stdin, "wb"), open(stdout, "rb")
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.exit_status(self.job, 0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self.server.exit_status(self.job, timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"pooled child {self.job}", timeout)
        try:
            self.stdin.close()
        except OSError:
            pass
        return self.returncode


def _namespace_pids(pid: int) -> list[int]:
    """`pid`'s ids in each PID namespace it belongs to, outermost first ([] once gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return [int(number) for number in line.split()[1:]]
    except (OSError, ValueError):
        pass
    return []

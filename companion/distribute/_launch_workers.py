"""The worker processes of `companion.distribute.launch`: their environment, output and stopping."""

from __future__ import annotations

import collections
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping

STDERR_TAIL = 10
_DEVICE_FLAG = re.compile(r"--xla_force_host_platform_device_count=\S*")


def worker_ports(workers: int, port: int | None) -> list[int]:
    """``port, port + 1, ...`` checked free, or with ``port=None`` free ports the system picks."""
    if port is None:
        return _free_ports(workers)
    for index in range(workers):
        if not _is_free(port + index):
            raise ValueError(f"Port {port + index} (for worker {index}) is in use. The workers need the "
                             f"{workers} ports {port} to {port + workers - 1}: pass another `port`, or "
                             f"leave it out to use free ports.")
    return [port + index for index in range(workers)]


def worker_environments(ports: list[int], devices_per_worker: int, base: Mapping[str, str]) -> list[dict]:
    """One environment per worker: ``base`` plus its ``TF_CONFIG`` and the XLA/JAX settings."""
    cluster = {"worker": [f"localhost:{port}" for port in ports]}
    flags = _DEVICE_FLAG.sub("", base.get("XLA_FLAGS", "")).split()
    flags.append(f"--xla_force_host_platform_device_count={devices_per_worker}")
    common = dict(base, PYTHONUNBUFFERED="1", XLA_FLAGS=" ".join(flags))
    common.setdefault("JAX_PLATFORMS", "cpu")
    tasks = [{"type": "worker", "index": index} for index in range(len(ports))]
    return [dict(common, TF_CONFIG=json.dumps({"cluster": cluster, "task": task})) for task in tasks]


def parameter_server_environments(ports: list[int], workers: int, ps: int, devices_per_worker: int,
                                  base: Mapping[str, str]) -> list[tuple[str, int, dict]]:
    """``(job, index, environment)`` of each task of a parameter-server cluster: the chief (port 0),
    ``workers`` workers, then ``ps`` ps tasks; every task shares one random connection secret."""
    cluster = {"chief": [f"localhost:{ports[0]}"],
               "worker": [f"localhost:{port}" for port in ports[1:1 + workers]],
               "ps": [f"localhost:{port}" for port in ports[1 + workers:1 + workers + ps]]}
    common = worker_environments(ports[:1], devices_per_worker, base)[0]
    common = dict(common, COMPANION_CLUSTER_SECRET=secrets.token_hex(16))
    tasks = [(job, index) for job in ("chief", "worker", "ps") for index in range(len(cluster[job]))]
    return [(job, index, dict(common, TF_CONFIG=json.dumps({"cluster": cluster,
                                                             "task": {"type": job, "index": index}})))
            for job, index in tasks]


class Worker:
    """One worker process; two threads copy its stdout and stderr lines to ``write``, prefixed."""

    def __init__(self, index: int, command: list[str], env: dict, write: Callable[[str], None],
                 job: str = "worker"):
        self.index = index
        self.job = job
        self.name = f"{job} {index}"
        self.stderr_tail = collections.deque(maxlen=STDERR_TAIL)
        self.has_output = threading.Event()
        self._write = write
        self.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, start_new_session=os.name == "posix")
        pipes = ((self.process.stdout, None), (self.process.stderr, self.stderr_tail))
        self._readers = [threading.Thread(target=self._copy, args=pipe, daemon=True) for pipe in pipes]
        for reader in self._readers:
            reader.start()

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: killed by that signal), else None."""
        return self.process.poll()

    def signal(self, number: int) -> None:
        """Sends ``number`` to the worker and to any processes it started (its process group)."""
        if self.process.poll() is not None:
            return
        try:
            if os.name == "posix":
                os.killpg(self.process.pid, number)
            else:
                self.process.terminate()
        except (ProcessLookupError, PermissionError):
            pass  # it ended in the meantime

    def join_output(self, timeout: float) -> None:
        """Waits up to ``timeout`` seconds for the last of the worker's output to be copied."""
        deadline = time.monotonic() + timeout
        for reader in self._readers:
            reader.join(max(0.0, deadline - time.monotonic()))

    def _copy(self, pipe, tail) -> None:
        prefix = f"[{self.name}] "
        for raw in iter(pipe.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self.has_output.set()
            if tail is not None:
                tail.append(line)
            self._write(prefix + line)
        pipe.close()


def stop_all(workers: list[Worker], grace: float) -> None:
    """SIGTERM to every running worker, then SIGKILL to those still running after ``grace`` seconds."""
    for worker in workers:
        worker.signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for worker in workers:
        try:
            worker.process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.signal(getattr(signal, "SIGKILL", signal.SIGTERM))
    for worker in workers:
        worker.process.wait()


def line_writer(stream) -> Callable[[str], None]:
    """A thread-safe function writing one line to ``stream`` and flushing it."""
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            stream.write(line + "\n")
            stream.flush()
    return write


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def _is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("", port))
        except OSError:
            return False
    return True

"""`create_local_cluster`: ps and worker processes on this machine, this process the chief.

A companion extension for notebooks (TF's tutorial builds its in-process cluster with test
utilities): ``num_ps`` ps tasks and ``num_workers`` worker tasks are started as separate
processes (``python -m companion.distribute._ps_task``, each with its ``TF_CONFIG``) naming
free localhost ports, with a random secret for their connections. The tasks talk over Unix
sockets in a temporary folder (one per ``host:port``), so the cluster needs no network: it
also runs in a sandbox whose loopback interface is down. Each task's output (stdout and
stderr) goes to a log, `LocalCluster.output`, not to the notebook. They exit when
`LocalCluster.shutdown` is called, when this process exits (``atexit``), or, failing both,
when they notice their parent is gone.
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from companion.distribute._launch_workers import worker_ports
from companion.distribute._ps_service import endpoint
from companion.distribute.cluster_resolver import TFConfigClusterResolver

GRACE_SECONDS = 5.0
STARTUP_SECONDS = 120.0


class LocalCluster:
    """Running ps and worker processes; ``cluster_resolver`` is this process's (the chief's) view.

    Attributes:
        cluster_resolver: a `TFConfigClusterResolver` for the task ``chief:0``.
        ps_pids, worker_pids: the processes' ids.

    ``output(job, index)`` gives what a task wrote (its log), e.g. a worker's traceback.
    """

    def __init__(self, num_workers, num_ps):
        ports = worker_ports(num_ps + num_workers + 1, None)
        cluster = {"chief": [f"localhost:{ports[0]}"],
                   "worker": [f"localhost:{p}" for p in ports[1:1 + num_workers]],
                   "ps": [f"localhost:{p}" for p in ports[1 + num_workers:]]}
        secret = secrets.token_hex(16)
        self.socket_dir = tempfile.mkdtemp(prefix="companion-ps-")  # no network needed (sandboxes)
        env = dict(os.environ, PYTHONUNBUFFERED="1", COMPANION_CLUSTER_SECRET=secret,
                   COMPANION_PARENT_PID=str(os.getpid()), COMPANION_CLUSTER_SOCKETS=self.socket_dir)
        env.setdefault("JAX_PLATFORMS", "cpu")
        self._processes = {}
        self._logs = {}
        atexit.register(self.shutdown)
        for job in ("ps", "worker"):
            for index in range(len(cluster[job])):
                task_env = dict(env, TF_CONFIG=json.dumps({"cluster": cluster, "task": {"type": job,
                                                                                        "index": index}}))
                log = self._logs[(job, index)] = tempfile.TemporaryFile()
                self._processes[(job, index)] = subprocess.Popen(
                    [sys.executable, "-m", "companion.distribute._ps_task"], env=task_env,
                    stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=os.name == "posix")
        self.cluster_resolver = TFConfigClusterResolver(tf_config={"cluster": cluster,
                                                                   "task": {"type": "chief", "index": 0}})
        self.cluster_resolver._companion_secret = secret
        self.cluster_resolver._companion_sockets = self.socket_dir
        self._wait_until_serving(cluster)

    def _wait_until_serving(self, cluster, timeout=STARTUP_SECONDS):
        """Waits until every task accepts connections; a task that exits first is an error."""
        deadline = time.monotonic() + timeout
        for (job, index), process in self._processes.items():
            path = endpoint(cluster[job][index], self.socket_dir)
            while True:
                where = f"The {job} task {index} of the local cluster"
                if process.poll() is not None:
                    output = self.output(job, index)
                    self.shutdown()
                    raise RuntimeError(f"{where} exited with code {process.returncode} while starting. "
                                       f"Its output:\n{output}")
                try:
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                        probe.settimeout(1.0)
                        probe.connect(path)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        output = self.output(job, index)
                        self.shutdown()
                        raise TimeoutError(f"{where} did not start serving within {timeout:g} s. "
                                           f"Its output:\n{output}") from None
                    time.sleep(0.1)

    def output(self, job, index):
        """What task ``job`` ``index`` has written (stdout and stderr), as text."""
        log = self._logs[(job, index)]
        log.seek(0)
        return log.read().decode("utf-8", "replace")

    @property
    def ps_pids(self):
        return [p.pid for (job, _), p in sorted(self._processes.items()) if job == "ps"]

    @property
    def worker_pids(self):
        return [p.pid for (job, _), p in sorted(self._processes.items()) if job == "worker"]

    def shutdown(self):
        """Stops every task process (SIGTERM, SIGKILL after 5 s) and waits for them; idempotent."""
        processes = list(self._processes.values())
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                process.send_signal(getattr(signal, "SIGKILL", signal.SIGTERM))
                process.wait()
        shutil.rmtree(self.socket_dir, ignore_errors=True)
        atexit.unregister(self.shutdown)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def __repr__(self):
        counts = {job: sum(1 for j, _ in self._processes if j == job) for job in ("ps", "worker")}
        return f"<companion LocalCluster ps={counts['ps']} workers={counts['worker']}>"


def create_local_cluster(num_workers=2, num_ps=1):
    """Starts ``num_ps`` ps and ``num_workers`` worker processes here; a `LocalCluster` (companion only).

    Pass ``cluster.cluster_resolver`` to ``ParameterServerStrategy``; call ``cluster.shutdown()``
    (or use ``with``) when done.

    Example:
        ``with tf.distribute.experimental.create_local_cluster(num_workers=2) as cluster:``
        starts three processes (two workers, one ps). The counts are checked first:

        >>> import companion as tf
        >>> tf.distribute.experimental.create_local_cluster(num_workers=0)
        Traceback (most recent call last):
        ...
        ValueError: create_local_cluster: `num_workers` must be a positive integer. Received: num_workers=0
    """
    for name, value in (("num_workers", num_workers), ("num_ps", num_ps)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"create_local_cluster: `{name}` must be a positive integer. "
                             f"Received: {name}={value!r}")
    return LocalCluster(num_workers, num_ps)

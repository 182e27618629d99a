"""`Server`: what a ``ps`` or ``worker`` task of a parameter-server cluster runs (``tf.distribute.Server``).

In TensorFlow's pattern every task runs the same script; the ps and worker tasks start a
server and wait, the chief creates the strategy and the coordinator::

    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    if resolver.task_type in ("ps", "worker"):
        tf.distribute.Server(resolver.cluster_spec(), job_name=resolver.task_type,
                             task_index=resolver.task_id, start=True).join()

``python -m companion.distribute._ps_task`` does just that from ``TF_CONFIG`` (what
`create_local_cluster` starts). With ``COMPANION_PARENT_PID`` set, the server exits when
that process is gone, so no task outlives the notebook that started it.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time

from companion.distribute import _ps_service
from companion.distribute.cluster_resolver import ClusterSpec, TFConfigClusterResolver

SUPPORTED_JOBS = ("ps", "worker")


class Server:
    """An in-process server of one task of a cluster (TF's ``tf.distribute.Server``).

    Args:
        server_or_cluster_def: a `ClusterSpec` (or its dict) naming the ``ps`` and ``worker`` tasks.
        job_name: ``"ps"`` (serves Variables) or ``"worker"`` (runs scheduled functions).
        task_index: the task's index in its job.
        protocol, config: accepted for compatibility (the transport is
            ``multiprocessing.managers``).
        start: start serving now (in a background thread); otherwise call `start`.

    Example:
        >>> import companion as tf
        >>> cluster = {"chief": ["localhost:2220"], "worker": ["localhost:2221"], "ps": ["localhost:2222"]}
        >>> tf.distribute.Server(cluster, job_name="ps", task_index=0, start=False).target
        'grpc://localhost:2222'
        >>> tf.distribute.Server(cluster, job_name="chief", task_index=0)
        Traceback (most recent call last):
        ...
        ValueError: tf.distribute.Server serves a 'ps' or a 'worker' task of a parameter-server cluster. ...
    """

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None, config=None,
                 start=True):
        cluster = ClusterSpec(server_or_cluster_def).as_dict()
        if job_name not in SUPPORTED_JOBS:
            raise ValueError(f"tf.distribute.Server serves a 'ps' or a 'worker' task of a parameter-server "
                             f"cluster. Received: job_name={job_name!r}. (The chief runs the "
                             "ClusterCoordinator and needs no server.)")
        addresses = cluster.get(job_name, [])
        if isinstance(task_index, bool) or not isinstance(task_index, int) \
                or not 0 <= task_index < len(addresses):
            raise ValueError(f"task_index must be an index into the {len(addresses)} {job_name!r} task(s) of "
                             f"the cluster. Received: task_index={task_index!r}")
        self._cluster = cluster
        self._job = job_name
        self._index = task_index
        self._address = addresses[task_index]
        self._thread = None
        if start:
            self.start()

    @property
    def target(self):
        """The task's address, ``'grpc://host:port'`` as TF shows it."""
        return f"grpc://{self._address}"

    def start(self):
        """Starts serving in a background thread (idempotent)."""
        if self._thread is None:
            key = _ps_service.authkey(self._cluster)
            self._thread = threading.Thread(
                target=_ps_service.serve, args=(self._address, key, self._job, self._index, self._cluster,
                                                _ps_service.socket_dir()),
                daemon=True, name=f"companion-{self._job}-{self._index}")
            self._thread.start()
            print(f"Started server with target: {self.target} ({self._job} {self._index})", file=sys.stderr,
                  flush=True)

    def join(self):
        """Blocks while the server runs (until the process is stopped)."""
        self.start()
        while self._thread.is_alive():
            self._thread.join(1.0)


def _watch_parent(pid: int) -> None:
    """Ends this process when process ``pid`` (the one that started it) is gone, removing the
    cluster's socket folder that its `LocalCluster.shutdown` would have removed."""
    while True:
        time.sleep(0.5)
        try:
            os.kill(pid, 0)
            gone = os.getppid() != pid
        except ProcessLookupError:
            gone = True
        except PermissionError:
            gone = os.getppid() != pid
        if gone:
            sockets = _ps_service.socket_dir()
            if sockets:
                shutil.rmtree(sockets, ignore_errors=True)
            os._exit(0)


def main() -> int:
    resolver = TFConfigClusterResolver()
    parent = os.environ.get("COMPANION_PARENT_PID")
    if parent:
        threading.Thread(target=_watch_parent, args=(int(parent),), daemon=True).start()
    server = Server(resolver.cluster_spec(), job_name=resolver.task_type, task_index=resolver.task_id)
    server.join()
    return 0

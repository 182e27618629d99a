"""Reading and checking a ``TF_CONFIG`` value: the cluster's jobs and this process's task.

Every error names the field at fault (``TF_CONFIG['cluster']['worker'][1]``), says what was
expected and shows what was received.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

JOBS = ("chief", "worker", "ps")
_UNSUPPORTED = {
    "evaluator": "a side-car evaluator task is not supported by companion",
}
_EXAMPLE = ('Expected JSON like {"cluster": {"worker": ["localhost:12345", "localhost:12346"]}, '
            '"task": {"type": "worker", "index": 0}}.')
_HINT = (f"Use only 'chief' and 'worker' jobs (MultiWorkerMirroredStrategy), plus 'ps' jobs "
         f"(ParameterServerStrategy). {_EXAMPLE}")


@dataclass(frozen=True)
class TFConfig:
    """A checked ``TF_CONFIG``; ``cluster`` is empty when there is none."""

    cluster: dict[str, list[str]] = field(default_factory=dict)
    task_type: str | None = None
    task_id: int | None = None
    rpc_layer: str | None = None
    environment: str | None = None


def parse_tf_config(value, task_type=None, task_id=None, rpc_layer=None, environment=None) -> TFConfig:
    """Checks ``value`` (JSON text, a mapping, or None / ``""`` for no cluster) and returns it.

    ``task_type`` and ``task_id``, when given, replace ``TF_CONFIG``'s ``task`` entries.
    """
    config = _load(value)
    if config is None:
        return TFConfig(task_type=task_type, task_id=task_id, rpc_layer=rpc_layer, environment=environment)
    cluster = _check_cluster(config)
    task = _task(config, need_task=task_type is None or task_id is None)
    task_type = _check_task_type(cluster, task, task_type)
    task_id = _check_task_id(cluster, task, task_type, task_id)
    rpc_layer = rpc_layer if rpc_layer is not None else config.get("rpc_layer")
    environment = environment if environment is not None else config.get("environment")
    return TFConfig(cluster, task_type, task_id, rpc_layer, environment)


def _load(value) -> Mapping | None:
    if value is None or value == "" or (isinstance(value, Mapping) and not value):
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as error:
            raise ValueError(f"TF_CONFIG is not valid JSON: {error}. Received: TF_CONFIG={_show(value)}. "
                             f"{_EXAMPLE}") from None
    if not isinstance(value, Mapping):
        raise ValueError(f"TF_CONFIG must be a JSON object with 'cluster' and 'task' keys. "
                         f"Received: TF_CONFIG={_show(value)}. {_EXAMPLE}")
    return value


def _check_cluster(config: Mapping) -> dict[str, list[str]]:
    if "cluster" not in config:
        raise ValueError(f"TF_CONFIG has no 'cluster' key naming the cluster's jobs. "
                         f"Received: TF_CONFIG={_show(config)}. {_EXAMPLE}")
    cluster = config["cluster"]
    if not isinstance(cluster, Mapping) or not cluster:
        raise ValueError(f"TF_CONFIG['cluster'] must be a non-empty dict from job name ('chief', 'worker', "
                         f"'ps') "
                         f"to a list of 'host:port' addresses. Received: {_show(cluster)}. {_EXAMPLE}")
    jobs = {job: _check_job(job, addresses) for job, addresses in cluster.items()}
    _check_unique(jobs)
    return jobs


def _check_job(job, addresses) -> list[str]:
    where = f"TF_CONFIG['cluster'][{job!r}]"
    if job in _UNSUPPORTED:
        raise ValueError(f"{where}: {_UNSUPPORTED[job]}. {_HINT}")
    if job not in JOBS:
        raise ValueError(f"{where}: unknown job {job!r}; companion's clusters have only 'chief', 'worker' "
                         f"and 'ps' jobs. {_HINT}")
    if not isinstance(addresses, list) or not addresses:
        raise ValueError(f"{where} must be a non-empty list of 'host:port' strings. "
                         f"Received: {_show(addresses)}")
    if job == "chief" and len(addresses) != 1:
        raise ValueError(f"{where} must list exactly one address: a cluster has one chief. "
                         f"Received: {_show(addresses)}")
    for index, address in enumerate(addresses):
        _check_address(f"{where}[{index}]", address)
    return list(addresses)


def _check_address(where: str, address) -> None:
    host, _, port = address.rpartition(":") if isinstance(address, str) else ("", "", "")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"{where} must be a 'host:port' string with a port from 1 to 65535, like "
                         f"'localhost:12345'. Received: {_show(address)}")


def _check_unique(jobs: dict[str, list[str]]) -> None:
    seen = {}
    for job, addresses in jobs.items():
        for index, address in enumerate(addresses):
            here = f"TF_CONFIG['cluster'][{job!r}][{index}]"
            if address in seen:
                raise ValueError(f"{here} repeats the address {address!r} of {seen[address]}; every task "
                                 f"needs its own host:port.")
            seen[address] = here


def _task(config: Mapping, need_task: bool) -> Mapping:
    task = config.get("task")
    if task is None and not need_task:
        return {}
    if task is None:
        raise ValueError(f"TF_CONFIG has no 'task' key naming this process's job and index, e.g. "
                         f'"task": {{"type": "worker", "index": 0}}. Received: TF_CONFIG={_show(config)}')
    if not isinstance(task, Mapping):
        raise ValueError(f"TF_CONFIG['task'] must be a dict like {{\"type\": \"worker\", \"index\": 0}}. "
                         f"Received: {_show(task)}")
    return task


def _check_task_type(cluster: dict, task: Mapping, task_type) -> str:
    where = "task_type" if task_type is not None else "TF_CONFIG['task']['type']"
    task_type = task_type if task_type is not None else task.get("type")
    if task_type in _UNSUPPORTED:
        raise ValueError(f"{where}: {_UNSUPPORTED[task_type]}. Received: {task_type!r}. {_HINT}")
    if task_type not in cluster:
        raise ValueError(f"{where} must be one of the cluster's jobs {sorted(cluster)}. "
                         f"Received: {_show_field(task_type)}")
    return task_type


def _check_task_id(cluster: dict, task: Mapping, task_type: str, task_id) -> int:
    where = "task_id" if task_id is not None else "TF_CONFIG['task']['index']"
    task_id = task_id if task_id is not None else task.get("index")
    count = len(cluster[task_type])
    if isinstance(task_id, bool) or not isinstance(task_id, int) or not 0 <= task_id < count:
        raise ValueError(f"{where} must be an integer from 0 to {count - 1} (the {task_type!r} job has "
                         f"{count} task(s)). Received: {_show_field(task_id)}")
    return task_id


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 400 else text[:400] + " ..."


def _show_field(value) -> str:
    return "nothing (the key is missing)" if value is None else _show(value)

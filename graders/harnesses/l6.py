"""Harnesses of lecture lab L6 (parameter servers vs all-reduce): traffic models and an async-SGD simulation.

Each call passes the case's plain numbers to the learner's function and reads back what it
returned as plain Python numbers (an int, a float or a 0-d tensor all read as a float), so the
comparison is about the value, not the kind of number. Nothing here computes an expected value:
those come from the solution notebook.
"""

from __future__ import annotations

import numpy as np

PS_KEYS = ("per_worker", "per_ps", "total")


def ring_allreduce_bytes_per_worker(function, num_params, num_workers, bytes_per_param) -> dict:
    """`ring_allreduce_bytes_per_worker(num_params, num_workers, bytes_per_param)`: bytes one worker sends."""
    return {"bytes": _number(function(int(num_params), int(num_workers), int(bytes_per_param)))}


def parameter_server_bytes(function, num_params, num_workers, num_ps, bytes_per_param) -> dict:
    """`parameter_server_bytes(num_params, num_workers, num_ps, bytes_per_param)`: a dict of three counts."""
    found = function(int(num_params), int(num_workers), int(num_ps), int(bytes_per_param))
    if not isinstance(found, dict):
        return {"keys": None, **dict.fromkeys(PS_KEYS)}
    return {"keys": sorted(str(key) for key in found), **{key: _number(found.get(key)) for key in PS_KEYS}}


def simulate_async_sgd(function, step_times, num_updates) -> dict:
    """`simulate_async_sgd(step_times, num_updates)`: which worker made each update, and its staleness."""
    found = function([float(t) for t in step_times], int(num_updates))
    try:
        workers, staleness = found
        workers, staleness = _ints(workers), _ints(staleness)
    except (TypeError, ValueError):
        workers = staleness = None
    return {"number of updates": None if workers is None else len(workers), "workers": workers,
            "staleness": staleness}


def _number(value):
    """A scalar as a Python float; None (which fails the comparison) for anything else."""
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return float(array) if array.shape == () else None


def _ints(values) -> list[int]:
    return [int(value) for value in np.asarray(values).reshape(-1).tolist()]

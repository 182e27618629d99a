"""Compiled programs held in memory stay under the operating system's cap on memory mappings.

XLA's CPU client maps each executable's code and data into the process (about three mappings a
program), and Linux caps the mappings of a process (``vm.max_map_count``, 65,530 by default).
JAX keeps every program it compiled for as long as its function lives, one per op and input
shape, so a process that meets tens of thousands of distinct programs (a test worker, a kernel
used all day) reaches the cap, and the next compile's ``mmap`` fails inside LLVM: a segmentation
fault, not an error (CI lost test workers this way after about 2,800 tests).

So companion counts the programs JAX compiles or loads; every `CHECK_EVERY` of them it counts the
process's mappings, and past `SHARE` of the cap it drops the compiled programs held in memory
(`jax.clear_caches` and companion's own caches, `on_release`) at the next point where no trace is
being built (`at_safe_point`). A dropped program is compiled again, or loaded from the persistent
cache, when it is next used; no value changes. Where the counts cannot be read (no ``/proc``),
nothing is watched.
"""

import threading

import jax
from jax._src import core as _jax_core  # trace_state_clean: is any JAX trace active
from jax._src import dispatch as _dispatch  # BACKEND_COMPILE_EVENT: each compile or cache load

CHECK_EVERY = 200  # programs compiled or loaded between two counts of the mappings (~20 ms each)
SHARE = 0.5  # of the cap: well before it, as one program's compile can add hundreds at once

_MAPS = "/proc/self/maps"
_CAP = "/proc/sys/vm/max_map_count"
_lock = threading.Lock()
_releasers = []
_state = {"cap": None, "compiles": 0, "due": False, "releases": 0}


def watch():
    """Starts counting compiles (once); False where the mapping counts cannot be read."""
    with _lock:
        if _state["cap"] is not None:
            return True
        cap = mapping_cap()
        if cap is None or mapping_count() is None:
            return False
        _state["cap"] = cap
    jax.monitoring.register_event_duration_secs_listener(_on_compile)
    return True


def on_release(release):
    """Registers ``release()``, called to drop one of companion's caches of compiled programs."""
    _releasers.append(release)


def mapping_cap():
    """The kernel's cap on one process's memory mappings, or None where it cannot be read."""
    try:
        with open(_CAP) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def mapping_count():
    """How many memory mappings this process has, or None where it cannot be read."""
    try:
        with open(_MAPS, "rb") as f:
            return f.read().count(b"\n")
    except OSError:
        return None


def releases():
    """How many times the compiled programs were dropped in this process."""
    return _state["releases"]


def _on_compile(event, duration, **kwargs):
    # runs inside JAX's compile: only note that a count is due (dropping caches here is unsafe)
    if event != _dispatch.BACKEND_COMPILE_EVENT:
        return
    _state["compiles"] += 1
    if _state["compiles"] % CHECK_EVERY == 0:
        _state["due"] = True


def at_safe_point():
    """Counts the mappings if a count is due and no trace is active; drops the compiled programs
    past `SHARE` of the cap. Callers: places that run or start programs, outside any program."""
    if not _state["due"] or not _jax_core.trace_state_clean():
        return
    _state["due"] = False
    release_if_over(SHARE * _state["cap"])


def release_if_over(mappings):
    """Drops every compiled program held in memory if the process has more than ``mappings``
    memory mappings; returns whether it did."""
    count = mapping_count()
    if count is None or count <= mappings:
        return False
    release()
    return True


def release():
    """Drops every compiled program held in memory (JAX's and companion's caches)."""
    for releaser in _releasers:
        releaser()
    jax.clear_caches()
    _state["releases"] += 1

"""Several simulated CPU devices in one process, and the settings their collectives need.

XLA can split the host CPU into K devices: with ``--xla_force_host_platform_device_count=K`` in
``XLA_FLAGS`` before the backend starts, or with `config.set_logical_device_configuration`, which
restarts JAX's CPU client with K devices (`use_cpu_devices`). Either way `serial_cpu_kernels` first
sets what keeps the collectives between those devices from deadlocking. This module imports
nothing of companion's: `companion/__init__.py` calls it before anything else starts JAX.
"""

import os
import re

import jax

_FORCED = re.compile(r"--xla_force_host_platform_device_count=(\d+)")


def forced_count():
    """The device count forced in ``XLA_FLAGS``, or None."""
    forced = _FORCED.search(os.environ.get("XLA_FLAGS", ""))
    return int(forced.group(1)) if forced else None


def serial_cpu_kernels(count):
    """With several (``count``) host devices, XLA's CPU collectives can deadlock when multithreaded
    kernels and waiting replicas compete for a small thread pool (a 2-core machine and 4
    devices): run each device's kernels on its own thread instead (before the backend starts)."""
    if not count or count <= 1:
        return
    flags = os.environ.get("XLA_FLAGS", "")
    if "xla_cpu_multi_thread_eigen" not in flags:
        flags = f"{flags} --xla_cpu_multi_thread_eigen=false"
    if "xla_cpu_collective_call_terminate_timeout_seconds" not in flags:
        # a loaded 2-core machine can leave one device's thread unscheduled for longer than XLA's
        # default 40 s, and XLA then aborts the process; wait instead
        flags = f"{flags} --xla_cpu_collective_call_terminate_timeout_seconds=600"
    os.environ["XLA_FLAGS"] = flags.strip()
    # The CPU client runs each device's share of a program on a thread pool sized by the CPUs the
    # process may use (PJRT_NPROC overrides it). A collective needs every device's thread at once,
    # and the next program's shares are queued on the same pool while the current one runs, each
    # holding a thread while it waits for its device's turn (a per-device semaphore). With fewer
    # threads than two programs' shares, the current program's last share can find every thread
    # taken by its peers, blocked in the collective, and by the next program's waiting shares: it
    # never starts (seen with gdb; with one busy CPU, 6 of 10 runs of a 4-device psum loop hung
    # with devices + 2 threads, 0 of 12 with twice the devices + 2). The pool's size also sets how
    # XLA splits some CPU loops, so results can differ in their last bits with it: a size that
    # depends on the device count only gives every machine the same numbers.
    if "PJRT_NPROC" not in os.environ:
        os.environ["PJRT_NPROC"] = str(2 * count + 2)
    # Programs over different device subsets (a 2-replica and a 4-replica strategy in one process)
    # dispatched asynchronously can interleave differently on different devices, and their CPU
    # collectives then wait for each other for ever: run each CPU program to completion instead.
    jax.config.update("jax_cpu_enable_async_dispatch", False)


def use_cpu_devices(count):
    """Restarts JAX's CPU client with ``count`` devices. Only while no array exists: every array
    and compiled program of the old client is dropped with it."""
    # deferred: JAX's backend module, needed only here
    from jax.extend import backend

    serial_cpu_kernels(count)
    backend.clear_backends()
    jax.config.update("jax_num_cpu_devices", count)

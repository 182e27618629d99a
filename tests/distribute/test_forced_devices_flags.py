"""With forced host devices, importing companion sets the XLA flags that keep CPU collectives alive."""

import os
import subprocess
import sys


def _flags(initial: str) -> str:
    program = ("import os, jax, companion; print(os.environ['XLA_FLAGS'] "
               "+ ('' if jax.config.values['jax_cpu_enable_async_dispatch'] else ' [sync dispatch]'))")
    done = subprocess.run([sys.executable, "-c", program], env={**os.environ, "XLA_FLAGS": initial},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_forced_devices_get_serial_kernels_and_a_patient_collective_timeout():
    flags = _flags("--xla_force_host_platform_device_count=4")
    assert "--xla_cpu_multi_thread_eigen=false" in flags
    assert "--xla_cpu_collective_call_terminate_timeout_seconds=600" in flags
    assert flags.endswith("[sync dispatch]")


def test_one_device_and_explicit_settings_are_left_alone():
    one = "--xla_force_host_platform_device_count=1"
    assert _flags(one).split() == [one, "--xla_cpu_use_fusion_emitters=false"]  # _cpu_compile_flags's own
    mine = "--xla_force_host_platform_device_count=2 --xla_cpu_collective_call_terminate_timeout_seconds=5"
    flags = _flags(mine)
    assert "terminate_timeout_seconds=5" in flags and "terminate_timeout_seconds=600" not in flags

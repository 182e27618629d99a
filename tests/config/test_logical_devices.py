"""`config.set_logical_device_configuration` splits the CPU into logical devices before the first
tensor, as TF does (values observed with TF 2.21). Each case runs in a fresh interpreter: the device
list belongs to the process."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import companion as tf

ROOT = Path(__file__).resolve().parents[2]

_SPLIT = """
import companion as tf
cpu = tf.config.list_physical_devices("CPU")
print(tf.config.get_logical_device_configuration(cpu[0]))
c = tf.config.LogicalDeviceConfiguration()
print(c == tf.config.LogicalDeviceConfiguration(),
      tf.config.experimental.VirtualDeviceConfiguration is type(c))
try:
    tf.config.set_logical_device_configuration("CPU:0", [c, c])
except ValueError as e:
    print(type(e).__name__)
tf.config.set_logical_device_configuration(cpu[0], [c, c, c])
print(len(tf.config.get_logical_device_configuration(cpu[0])))
print(tf.config.list_physical_devices("CPU"))
print(tf.config.list_logical_devices("CPU"))
try:
    tf.config.set_logical_device_configuration(cpu[0], [c, c])
except RuntimeError as e:
    print(type(e).__name__, e)
tf.config.set_logical_device_configuration(cpu[0], [c, c, c])
print("same ok")
s = tf.distribute.MirroredStrategy()
print(s.num_replicas_in_sync, s.extended.worker_devices)
per_replica = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group + 1)
print(s.reduce("SUM", per_replica, axis=None).numpy())
"""
# TF 2.21 printed (its physical device list, configurations and strategy, line by line):
_TF_SPLIT = """None
True True
ValueError
3
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
[LogicalDevice(name='/device:CPU:0', device_type='CPU'), \
LogicalDevice(name='/device:CPU:1', device_type='CPU'), \
LogicalDevice(name='/device:CPU:2', device_type='CPU')]
RuntimeError Virtual devices cannot be modified after being initialized
same ok
3 ('/job:localhost/replica:0/task:0/device:CPU:0', '/job:localhost/replica:0/task:0/device:CPU:1', \
'/job:localhost/replica:0/task:0/device:CPU:2')
6
"""

_AFTER_A_TENSOR = """
import companion as tf
x = tf.constant(1.0)
cpu = tf.config.list_physical_devices("CPU")[0]
try:
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
except RuntimeError as e:
    print(type(e).__name__, e)
print(len(tf.config.list_logical_devices("CPU")), x.numpy())
"""

_FORCED_BY_FLAG = """
import companion as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
print("four kept")
try:
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
except RuntimeError as e:
    print(type(e).__name__, "--xla_force_host_platform_device_count=4" in str(e))
"""


def _run(code, **env):
    environment = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "PJRT_NPROC")}
    environment.update(JAX_PLATFORMS="cpu", **env)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                            env=environment, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_cpu_splits_into_logical_devices_as_in_tensorflow():
    assert _run(_SPLIT) == _TF_SPLIT


def test_after_the_first_tensor_the_devices_cannot_change():
    refused = "RuntimeError Virtual devices cannot be modified after being initialized\n"
    assert _run(_AFTER_A_TENSOR) == refused + "1 1.0\n"


def test_a_count_forced_by_xla_flags_is_kept_and_another_is_refused_with_the_reason():
    out = _run(_FORCED_BY_FLAG, XLA_FLAGS="--xla_force_host_platform_device_count=4")
    assert out == "four kept\nRuntimeError True\n"


@pytest.mark.parametrize("bad", [[object()], ["CPU:0"], [None]])
def test_configurations_must_be_logical_device_configurations(bad):
    """Checked before anything changes, so in the test's own process."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(TypeError, match="LogicalDeviceConfiguration objects. Received"):
        tf.config.set_logical_device_configuration(cpu, bad)
    with pytest.raises(ValueError, match="Unrecognized device: 'CPU:0'"):
        tf.config.set_logical_device_configuration("CPU:0", [tf.config.LogicalDeviceConfiguration()])
    assert tf.config.get_logical_device_configuration(cpu) is None

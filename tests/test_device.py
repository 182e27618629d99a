"""Tests of device names, companion.config device listing/settings and the `device` placement scope."""

import os
import subprocess
import sys

import jax
import numpy as np
import pytest

import companion as tf
import companion.config  # noqa: F401 - binds tf.config before companion/__init__ exports it
from companion._core import _device
from companion._core._errors import InvalidArgumentError

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
HAS_ACCELERATOR = bool(_device.jax_devices("GPU") or _device.jax_devices("TPU"))
cpu_only = pytest.mark.skipif(HAS_ACCELERATOR, reason="checks the CPU-only machine's device list")


@pytest.fixture(autouse=True)
def _default_settings():
    """Every test starts and ends with all devices visible and soft placement off."""
    yield
    tf.config.set_visible_devices(tf.config.list_physical_devices())
    tf.config.set_soft_device_placement(False)
    tf.config.run_functions_eagerly(False)


# -- listing ---------------------------------------------------------------------------------

@cpu_only
def test_cpu_machine_lists_one_cpu_and_no_gpu():
    assert tf.config.list_physical_devices("CPU") == [
        tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")]
    assert tf.config.list_physical_devices("GPU") == []
    assert tf.config.list_physical_devices("tpu") == []
    assert tf.config.list_physical_devices() == tf.config.list_physical_devices("CPU")
    assert tf.config.list_logical_devices() == [tf.config.LogicalDevice("/device:CPU:0", "CPU")]


def test_devices_are_namedtuples_like_tensorflow():
    cpu = tf.config.list_physical_devices("cpu")[0]
    assert (cpu.name, cpu.device_type) == ("/physical_device:CPU:0", "CPU")
    assert cpu == ("/physical_device:CPU:0", "CPU")
    assert repr(cpu) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"


def test_experimental_aliases():
    assert tf.config.experimental.list_physical_devices is tf.config.list_physical_devices
    assert tf.config.experimental.list_logical_devices is tf.config.list_logical_devices
    assert tf.config.experimental.set_visible_devices is tf.config.set_visible_devices


def test_unknown_device_type_is_an_error():
    with pytest.raises(ValueError, match="Unknown device type 'FPGA'.*CPU, GPU, TPU"):
        tf.config.list_physical_devices("FPGA")


# -- device names ----------------------------------------------------------------------------

def test_tensors_report_their_device():
    assert tf.constant([1.0, 2.0]).device == CPU0
    assert tf.Variable(1.0).device == CPU0
    assert tf.constant(["text"]).device == CPU0  # strings live on the host


def test_traced_values_report_no_device():
    seen = []

    @jax.jit
    def f(x):
        seen.append(tf.Tensor(x).device)
        return x

    f(np.ones(2))
    assert seen == [""]


# -- the device scope ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["CPU:0", "/CPU:0", "cpu:0", "/device:CPU:0", "/device:cpu:0", "CPU",
                                  "/job:localhost/replica:0/task:0/device:CPU:0", "/cpu:*"])
def test_device_scope_accepts_tensorflow_spellings(name):
    with _device.device(name):
        x = tf.constant(1.0)
        y = x * 2.0
    assert x.device == CPU0 and y.device == CPU0


def test_device_scope_accepts_device_objects_and_nothing():
    for spec in (tf.config.list_logical_devices()[0], tf.config.list_physical_devices()[0], None, "",
                 "/job:localhost"):
        with _device.device(spec):
            assert tf.constant(1).device == CPU0


@cpu_only
def test_absent_device_raises_listing_present_devices():
    with pytest.raises(InvalidArgumentError, match=r"'GPU:0'.*not present.*Devices present: CPU:0"):
        with _device.device("GPU:0"):
            pass
    with pytest.raises(ValueError, match="CPU:7"):  # except ValueError works too
        with _device.device("/device:CPU:7"):
            pass


@cpu_only
def test_soft_placement_falls_back_to_the_cpu():
    tf.config.set_soft_device_placement(True)
    assert tf.config.get_soft_device_placement()
    with _device.device("GPU:0"):
        assert tf.constant(1.0).device == CPU0


@pytest.mark.parametrize("name", ["foo", "CPU:x", "/device:FPGA:0", "CPU:0:1"])
def test_malformed_names_raise(name):
    with pytest.raises(InvalidArgumentError, match="Cannot understand the device name"):
        with _device.device(name):
            pass


def test_non_string_name_raises_type_error():
    with pytest.raises(TypeError, match="device name string.*Received: 3"):
        with _device.device(3):
            pass


def test_other_task_is_absent():
    with pytest.raises(InvalidArgumentError, match="not present"):
        with _device.device("/job:localhost/task:5/device:CPU:0"):
            pass


# -- settings ----------------------------------------------------------------------------------

def test_visible_devices_are_recorded():
    tf.config.set_visible_devices([], "GPU")
    assert tf.config.get_visible_devices("GPU") == []
    assert tf.config.get_visible_devices("CPU") == tf.config.list_physical_devices("CPU")
    with pytest.raises(ValueError, match="cannot hide every CPU"):
        tf.config.set_visible_devices([], "CPU")
    with pytest.raises(ValueError, match="PhysicalDevice from config.list_physical_devices"):
        tf.config.set_visible_devices(["CPU:0"])
    with pytest.raises(ValueError, match="is a CPU, but device_type selects GPU"):
        tf.config.set_visible_devices(tf.config.list_physical_devices("CPU"), "GPU")


def test_memory_growth_is_accepted_for_gpus_only():
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError, match="only be set on a GPU"):
        tf.config.experimental.set_memory_growth(cpu, True)
    assert tf.config.experimental.get_memory_growth(cpu) is False
    for gpu in tf.config.list_physical_devices("GPU"):  # the course's idiom; none on a CPU machine
        tf.config.experimental.set_memory_growth(gpu, True)
        assert tf.config.experimental.get_memory_growth(gpu) is True


def test_run_functions_eagerly_flag():
    assert tf.config.functions_run_eagerly() is False
    tf.config.run_functions_eagerly(True)
    assert tf.config.functions_run_eagerly() is True


def test_op_determinism_flag():
    from companion.config import _execution

    tf.config.experimental.enable_op_determinism()
    assert _execution.is_op_determinism_enabled()
    tf.config.experimental.disable_op_determinism()
    assert not _execution.is_op_determinism_enabled()


# -- several (forced) host devices, in a fresh process ------------------------------------------

_FOUR_CPUS = """
import companion as tf, companion.config
from companion._core._device import device
print(len(tf.config.list_physical_devices("CPU")), len(tf.config.list_logical_devices()))
with device("CPU:3"):
    x = tf.constant(1.0)
    y = x + 1.0
print(x.device); print(y.device)
with device(tf.config.list_logical_devices()[2]):
    print(tf.constant([1, 2]).device)
tf.config.set_visible_devices(tf.config.list_physical_devices("CPU")[1:])
print(tf.constant(1.0).device)
try:
    with device("CPU:0"):
        pass
except ValueError as error:
    print(type(error).__name__, str(error).split("Devices present: ")[1].split(".")[0])
"""


def test_forced_host_devices_in_a_subprocess():
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4", JAX_PLATFORMS="cpu")
    result = subprocess.run([sys.executable, "-c", _FOUR_CPUS], capture_output=True, text=True, env=env,
                            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "4 4"
    assert lines[1].endswith("device:CPU:3") and lines[2].endswith("device:CPU:3")
    assert lines[3].endswith("device:CPU:2")
    assert lines[4].endswith("device:CPU:1")  # CPU:0 hidden: the first visible one is the default
    assert lines[5] == "InvalidArgumentError CPU:1, CPU:2, CPU:3"

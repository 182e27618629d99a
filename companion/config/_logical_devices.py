"""Logical (virtual) devices: TF's ``config.set_logical_device_configuration``.

TensorFlow splits a physical device into several logical ones before its runtime starts; the
usual use is several CPUs on one machine, to try a `MirroredStrategy` without accelerators. For
the CPU companion does the same with XLA's host devices: the call restarts JAX's CPU client with
one device per configuration (`companion._host_devices.use_cpu_devices`), which is allowed only
while no tensor exists yet, as TF allows it only before its runtime is initialized.
"""

import collections

import jax

from companion import _host_devices
from companion._core import _device

LogicalDeviceConfiguration = collections.namedtuple(
    "LogicalDeviceConfiguration", ["memory_limit", "experimental_priority", "experimental_device_ordinal"],
    defaults=(None, None, None))
LogicalDeviceConfiguration.__doc__ = """One logical device to make of a physical one
(TF's ``tf.config.LogicalDeviceConfiguration``; ``memory_limit`` in MB applies to GPUs)."""

_CONFIGURED = {}  # physical device name -> the configurations set


def set_logical_device_configuration(device, logical_devices):
    """Splits the physical ``device`` into one logical device per entry of ``logical_devices``.

    Call it before the first tensor is made. For the CPU, ``len(logical_devices)`` host
    devices appear (``/device:CPU:0``, ``/device:CPU:1``, ...), and ``MirroredStrategy()``
    makes one replica on each. Splitting a GPU is not available: JAX gives each GPU one device.

    Args:
        device: a `PhysicalDevice` from ``list_physical_devices()``.
        logical_devices: a list of `LogicalDeviceConfiguration`.

    Raises:
        ValueError: ``device`` is not a physical device of this machine.
        RuntimeError: tensors already exist (TF: its runtime was initialized) and the
            configuration differs from the one in effect.

    Example:
        >>> import companion as tf
        >>> cpu = tf.config.list_physical_devices("CPU")[0]
        >>> tf.config.set_logical_device_configuration(
        ...     cpu, [tf.config.LogicalDeviceConfiguration()] * 2)  # doctest: +SKIP
    """
    if not isinstance(device, _device.PhysicalDevice) or device not in _device.list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}. Pass a PhysicalDevice from "
                         f"tf.config.list_physical_devices(), e.g. {_device.list_physical_devices()[0]!r}.")
    configs = list(logical_devices or ())
    for config in configs:
        if not isinstance(config, LogicalDeviceConfiguration):
            raise TypeError(f"logical_devices must hold tf.config.LogicalDeviceConfiguration objects. "
                            f"Received: {config!r} of type {type(config).__name__}")
    if configs == _CONFIGURED.get(device.name, []):
        return
    if device.device_type != "CPU":
        if len(configs) > 1:
            raise NotImplementedError(
                f"companion cannot split {device.name} into {len(configs)} logical devices: JAX gives each "
                "GPU or TPU exactly one device. Use several physical devices, or split the CPU instead "
                "(tf.config.set_logical_device_configuration(tf.config.list_physical_devices('CPU')[0], "
                "[tf.config.LogicalDeviceConfiguration()] * 4)).")
        _CONFIGURED[device.name] = configs  # one logical device per GPU: how JAX has it already
        return
    count = max(len(configs), 1)
    if count != len(_device.jax_devices("CPU")):
        if runtime_initialized():
            raise RuntimeError("Virtual devices cannot be modified after being initialized")
        forced = _host_devices.forced_count()
        if forced is not None:
            raise RuntimeError(
                f"XLA_FLAGS already splits the CPU into {forced} devices "
                f"(--xla_force_host_platform_device_count={forced}), so companion cannot make it {count}. "
                "Remove that flag from XLA_FLAGS (and restart the kernel), or keep its count.")
        _host_devices.use_cpu_devices(count)
        _device.devices_changed()
    _CONFIGURED[device.name] = configs


def get_logical_device_configuration(device):
    """The configurations set for the physical ``device`` with `set_logical_device_configuration`,
    or None when none were set (TF's ``tf.config.get_logical_device_configuration``)."""
    if not isinstance(device, _device.PhysicalDevice):
        raise ValueError(f"Unrecognized device: {device!r}. Pass a PhysicalDevice from "
                         "tf.config.list_physical_devices().")
    configs = _CONFIGURED.get(device.name)
    return list(configs) if configs else None


def runtime_initialized():
    """Whether companion's runtime has started: an array exists (TF: an op ran), or the logical
    devices were listed (TF's ``list_logical_devices`` initializes its runtime)."""
    return bool(jax.live_arrays()) or _device.logical_devices_listed()

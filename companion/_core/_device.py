"""Devices: TensorFlow-style device names for JAX devices, device listing, and `device` placement.

TensorFlow names a device ``/job:localhost/replica:0/task:0/device:GPU:0``: the task is
the process, the index counts devices of one type within it. companion derives these
names from ``jax.devices()``. ``device("GPU:0")`` makes that device JAX's default device
inside the block, so tensors created there live on it, and ops on tensors that were not
explicitly placed run there.
"""

import collections
import contextlib
import re

import jax

from companion._core import _tensor_names
from companion._core._context import state
from companion._core._errors import InvalidArgumentError

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = """A device of this machine, as ``config.list_physical_devices`` lists it."""
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDevice.__doc__ = """A device ops can be placed on, as ``config.list_logical_devices`` lists it."""

DEVICE_TYPES = ("CPU", "GPU", "TPU")
_BACKENDS = {"CPU": "cpu", "GPU": "gpu", "TPU": "tpu"}
_PLATFORM_TYPES = {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU"}
_NAMES = {}  # jax Device -> full TensorFlow name


class _Settings:
    """Choices recorded by ``config``: hidden devices, memory growth, soft placement."""

    hidden = set()  # (device_type, index) pairs hidden by set_visible_devices
    memory_growth = {}  # physical device name -> bool
    soft_placement = False
    logical_listed = False  # list_logical_devices was called
    logical_cpus = False  # the CPU was split into logical devices: one physical CPU is listed


def device_name_of(array):
    """The TensorFlow-style name of the device holding ``array`` ('' for a tracer).

    NumPy arrays (string tensors) live on the host CPU. An array spread over several
    devices reports the first of them.
    """
    if isinstance(array, jax.core.Tracer):
        return ""
    if not isinstance(array, jax.Array):
        return _full_name(jax.local_devices(backend="cpu")[0])
    return _full_name(min(array.devices(), key=lambda d: d.id))


def jax_devices(device_type):
    """This process's JAX devices of ``device_type`` ('CPU', 'GPU', 'TPU'); [] when absent."""
    try:
        return list(jax.local_devices(backend=_BACKENDS[device_type]))
    except RuntimeError:  # JAX raises RuntimeError for a backend this machine lacks
        return []


def list_physical_devices(device_type=None):
    """The devices of this process as `PhysicalDevice`s, optionally of one type.

    Args:
        device_type: "CPU", "GPU" or "TPU" (case-insensitive), or None for all.

    Example:
        >>> import companion as tf
        >>> tf.config.list_physical_devices("CPU")[0]
        PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')
    """
    return [PhysicalDevice(f"/physical_device:{kind}:{i}", kind) for kind, i, _ in _inventory(device_type)
            if not (kind == "CPU" and i > 0 and _Settings.logical_cpus)]


def list_logical_devices(device_type=None):
    """The visible devices (see `set_visible_devices`) as `LogicalDevice`s, optionally of one type.

    Example:
        >>> import companion as tf
        >>> tf.config.list_logical_devices("CPU")[0]
        LogicalDevice(name='/device:CPU:0', device_type='CPU')
    """
    _Settings.logical_listed = True
    return [LogicalDevice(f"/device:{kind}:{i}", kind) for kind, i, _ in _inventory(device_type)
            if (kind, i) not in _Settings.hidden]


def logical_devices_listed():
    """Whether `list_logical_devices` was called (TF's runtime is initialized by then)."""
    return _Settings.logical_listed


def devices_changed():
    """After `config.set_logical_device_configuration` split the CPU: forget what was derived from
    the old device list. The CPU's logical devices share one physical device, as in TF."""
    _NAMES.clear()
    _SIMULATED.clear()
    _Settings.logical_cpus = True


@contextlib.contextmanager
def device(device_name):
    """Places the tensors and ops created inside the block on one device.

    Accepts TensorFlow's spellings, case-insensitively: ``"CPU:0"``, ``"/CPU:0"``,
    ``"gpu:1"``, ``"/device:GPU:0"``, ``"/job:localhost/replica:0/task:0/device:CPU:0"``,
    or a `LogicalDevice`/`PhysicalDevice`. ``None`` or ``""`` leaves placement unchanged.

    TensorFlow falls back to another device when the one asked for is absent ("soft
    placement"); companion raises instead, so a notebook never believes it runs on a GPU
    it does not have (``config.set_soft_device_placement(True)`` restores the fallback to
    the CPU). The error is an `InvalidArgumentError`, TensorFlow's error class for an
    unsatisfiable device, which subclasses ``ValueError`` because the argument names a
    device that does not exist: ``except ValueError`` catches it.

    Example:
        >>> import companion as tf
        >>> with tf.device("CPU:0"):
        ...     x = tf.constant([1.0, 2.0])
        >>> x.device
        '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    target = resolve(device_name)
    graph_device = graph_device_scope(device_name)
    if target is None:
        with graph_device:
            yield
        return
    with jax.default_device(target), graph_device:
        yield


def graph_device_scope(device_name):
    """While a function traces: the device its graph records for the ops made in the block (TF's
    ``Tensor("mul:0", ..., device=/device:CPU:0)``), the block's device spec merged onto the
    enclosing one; None clears it, ``""`` keeps it. Outside a trace: nothing."""
    names = _tensor_names.active() if state.staging else None
    if names is None:
        return contextlib.nullcontext()
    device_name = getattr(device_name, "name", device_name)
    outer = names.devices[-1] if names.devices else ""
    if device_name is None:
        return names.device_scope("")
    return names.device_scope(merged_device_spec(outer, device_name) if device_name else outer)


def merged_device_spec(outer, device_name):
    """TF's device string (``DeviceSpec.to_string``) of ``device_name`` with the fields it leaves
    unset taken from ``outer``: ``merged_device_spec("/job:localhost/task:0", "cpu:0")`` is
    ``"/job:localhost/task:0/device:CPU:0"``."""
    fields = {}
    for text in (outer, device_name):
        for part in text.strip().strip("/").split("/") if text.strip("/ ") else ():
            match = _PART.match(part)
            if match is None:
                raise _malformed(device_name)
            if match.group(1) is not None:
                fields[match.group(1).lower()] = match.group(2)
            else:
                fields["device"] = f"{match.group(3).upper()}:{match.group(4) or '*'}"
    return "".join(f"/{key}:{fields[key]}" for key in ("job", "replica", "task", "device") if key in fields)


def resolve(device_name):
    """The JAX device a TensorFlow device string names (None for no device), or an error."""
    device_name = getattr(device_name, "name", device_name)
    if not device_name:
        return None
    kind, index = _parse(device_name)
    if kind is None:
        return None
    found = jax_devices(kind)
    if index < len(found) and (kind, index) not in _Settings.hidden:
        return found[index]
    if _Settings.soft_placement:
        return resolve(list_logical_devices("CPU")[0].name)
    raise _absent(device_name)


# -- settings recorded by companion.config --------------------------------------------------

def set_visible_devices(devices, device_type=None):
    """Chooses which devices companion may place tensors on; the others are hidden.

    Hidden devices disappear from `list_logical_devices` and `device` refuses them; when
    JAX's default device is hidden, the first visible one becomes the default (so
    ``set_visible_devices([], "GPU")`` makes code run on the CPU). The limit: JAX has
    already initialized every device and may have reserved GPU memory on hidden ones;
    to keep JAX off a GPU entirely, set ``CUDA_VISIBLE_DEVICES`` (or
    ``JAX_PLATFORMS=cpu``) before importing companion.

    Args:
        devices: a `PhysicalDevice` or a list of them, from `list_physical_devices`.
        device_type: only devices of this type change visibility; None: all types.

    Example:
        >>> import companion as tf
        >>> gpus = tf.config.list_physical_devices("GPU")
        >>> tf.config.set_visible_devices([], "GPU")  # run on the CPU only
        >>> tf.config.get_visible_devices("GPU")
        []
        >>> tf.config.set_visible_devices(gpus, "GPU")  # undo
    """
    kinds = DEVICE_TYPES if device_type is None else (_checked_type(device_type),)
    chosen = {_physical_key(d, kinds) for d in _as_list(devices)}
    hidden = {(k, i) for k, i, _ in _inventory(None) if k in kinds and (k, i) not in chosen}
    hidden |= {h for h in _Settings.hidden if h[0] not in kinds}
    if all(("CPU", i) in hidden for _, i, _ in _inventory("CPU")):
        raise ValueError("set_visible_devices cannot hide every CPU: companion needs one for the "
                         f"host. Received: devices={devices!r}, device_type={device_type!r}. Keep "
                         "config.list_physical_devices('CPU')[0] visible.")
    _Settings.hidden = hidden
    _update_default_device()


def get_visible_devices(device_type=None):
    """The `PhysicalDevice`s not hidden by `set_visible_devices`, optionally of one type."""
    return [d for d in list_physical_devices(device_type) if _key(d.name) not in _Settings.hidden]


def set_memory_growth(device, enable):
    """Records whether GPU memory should grow on demand; a documented no-op.

    JAX reserves GPU memory when its backend starts, which happens before a device can
    be passed here. To allocate on demand instead, set the environment variable
    ``XLA_PYTHON_CLIENT_PREALLOCATE=false`` (or ``XLA_PYTHON_CLIENT_MEM_FRACTION=.5``)
    before importing companion. The setting is recorded for `get_memory_growth`.

    Raises:
        ValueError: ``device`` is not a GPU from `list_physical_devices`.
    """
    if getattr(device, "device_type", None) != "GPU":
        raise ValueError(f"Memory growth can only be set on a GPU. Received: {device!r}. Pass one "
                         "of config.list_physical_devices('GPU').")
    _physical_key(device, ("GPU",))
    _Settings.memory_growth[device.name] = bool(enable)


def get_memory_growth(device):
    """The value last given to `set_memory_growth` for ``device`` (False by default)."""
    _physical_key(device, DEVICE_TYPES)
    return _Settings.memory_growth.get(device.name, False)


def set_soft_device_placement(enabled):
    """Whether `device` falls back to the first visible CPU for an absent device.

    TensorFlow enables this fallback by default; companion starts with it off, so that
    ``device("GPU:0")`` on a machine without a GPU raises instead of silently using the CPU.
    """
    _Settings.soft_placement = bool(enabled)


def get_soft_device_placement():
    """The value set by `set_soft_device_placement` (False by default)."""
    return _Settings.soft_placement


# -- private helpers ---------------------------------------------------------------------

_PART = re.compile(r"^(?:(job|replica|task):(\w+)"  # a job/replica/task part, or a device part:
                   r"|(?:physical_device:|device:)?([a-z_]+)(?::(\d+|\*))?)$", re.I)


def _parse(device_name):
    """(device type, index) from a device string; (None, 0) when it names no device."""
    if not isinstance(device_name, str):
        raise TypeError("device expects a device name string such as 'CPU:0' or '/device:GPU:0'. "
                        f"Received: {device_name!r} of type {type(device_name).__name__}")
    kind, index = None, 0
    for part in device_name.strip().strip("/").split("/"):
        match = _PART.match(part)
        if match is None:
            raise _malformed(device_name)
        if match.group(1) is None:
            kind, index = match.group(3).upper(), match.group(4) or "0"
            index = 0 if index == "*" else int(index)
        elif match.group(1).lower() == "task" and match.group(2) != str(jax.process_index()):
            raise _absent(device_name)
    if kind is not None and kind not in DEVICE_TYPES:
        raise _malformed(device_name)
    return kind, index


def _inventory(device_type):
    kinds = DEVICE_TYPES if device_type is None else (_checked_type(device_type),)
    return [(kind, i, d) for kind in kinds for i, d in enumerate(jax_devices(kind))]


def _checked_type(device_type):
    kind = str(device_type).upper()
    if kind not in DEVICE_TYPES:
        raise ValueError(f"Unknown device type {device_type!r}: expected one of {', '.join(DEVICE_TYPES)} "
                         "(case-insensitive), or None for all devices.")
    return kind


def _key(name):
    """("GPU", 1) from a device name ending in "GPU:1"."""
    kind, index = name.rsplit(":", 2)[-2:]
    return kind, int(index)


def _physical_key(physical, kinds):
    if not isinstance(physical, PhysicalDevice) or physical not in list_physical_devices():
        raise ValueError(f"Expected a PhysicalDevice from config.list_physical_devices(). "
                         f"Received: {physical!r}. Present: {list_physical_devices()}")
    if physical.device_type not in kinds:
        raise ValueError(f"{physical.name} is a {physical.device_type}, but device_type selects "
                         f"{', '.join(kinds)}. Pass devices of that type, or device_type=None.")
    return _key(physical.name)


def _as_list(devices):
    return [devices] if isinstance(devices, PhysicalDevice) else list(devices)


def _update_default_device():
    default = jax.local_devices()[0]
    candidates = jax.local_devices() + jax_devices("CPU")
    visible = [d for d in candidates if _key(_full_name(d)) not in _Settings.hidden]
    jax.config.update("jax_default_device", None if visible[0] == default else visible[0])


def _full_name(dev):
    name = _NAMES.get(dev)
    if name is None:
        kind = _PLATFORM_TYPES.get(dev.platform, dev.platform.upper())
        same = sorted((d for d in jax.devices(dev.platform) if d.process_index == dev.process_index),
                      key=lambda d: d.id)
        job = "localhost" if jax.process_count() == 1 else "worker"
        name = f"/job:{job}/replica:0/task:{dev.process_index}/device:{kind}:{same.index(dev)}"
        _NAMES[dev] = name
    return name


def _present():
    return [d.name.removeprefix("/device:") for d in list_logical_devices()]


def _absent(device_name):
    present = _present()
    return InvalidArgumentError(
        f"Cannot place tensors on device {device_name!r}: it is not present (or was hidden with "
        f"config.set_visible_devices). Devices present: {', '.join(present)}. Use one of those, e.g. "
        f"companion.device({present[0]!r}), or call companion.config.set_soft_device_placement(True) "
        "to fall back to the CPU.")


def _malformed(device_name):
    return InvalidArgumentError(
        f"Cannot understand the device name {device_name!r}. Expected a name like 'CPU:0', "
        f"'/GPU:0', '/device:TPU:0' or '/job:localhost/replica:0/task:0/device:CPU:0'. "
        f"Devices present: {', '.join(_present())}.")


_SIMULATED = {}  # "devices": True when the devices are forced host (CPU) devices, several of them


def settle_on_simulated_devices(outputs):
    """Waits for ``outputs`` (arrays, or a structure of them) when several forced CPU devices
    simulate accelerators; a no-op anywhere else.

    XLA's CPU client runs each device's share of a multi-device program on its thread pool and
    admits the next program's share behind a per-device semaphore. With two such programs in
    flight, the second's share on one device can hold that device's slot while it waits for the
    first's outputs, and the first's share on that device never starts: its all-reduce waits for
    ever (seen as the C2W4 custom training loop hanging in its first epochs). Letting a program
    (a staged function, a `Strategy.run`) finish before the next one starts rules it out; on real
    accelerators JAX's asynchronous dispatch is kept.
    """
    simulated = _SIMULATED.get("devices")
    if simulated is None:
        simulated = _SIMULATED["devices"] = jax.default_backend() == "cpu" and jax.device_count() > 1
    if simulated:
        jax.block_until_ready(outputs)
    return outputs

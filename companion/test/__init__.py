"""``companion.test``: TensorFlow's ``tf.test`` — device queries (``gpu_device_name``,
``is_gpu_available``, ``is_built_with_cuda``), `TestCase` with tensor assertions, `main`, and the
gradient checker (`compute_gradient`)."""

import warnings

import jax

from companion.test._gradient_checker import compute_gradient
from companion.test._test_case import TestCase, main

__all__ = ["TestCase", "compute_gradient", "gpu_device_name", "is_built_with_cuda",
           "is_built_with_gpu_support", "is_built_with_rocm", "is_built_with_xla", "is_gpu_available", "main"]


def _gpus():
    try:
        return jax.devices("gpu")
    except RuntimeError:  # no GPU backend installed or no GPU found
        return []


def gpu_device_name():
    """``'/device:GPU:0'`` when a GPU is available, else ``''`` (as TF).

    Example:
        >>> import companion as tf
        >>> tf.test.gpu_device_name() in ("", "/device:GPU:0")
        True
    """
    return "/device:GPU:0" if _gpus() else ""


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """Whether a GPU is available (TF deprecates it for ``config.list_physical_devices('GPU')``)."""
    warnings.warn("is_gpu_available is deprecated (as in TF): use "
                  "companion.config.list_physical_devices('GPU') instead.", DeprecationWarning, stacklevel=2)
    gpus = _gpus()
    if cuda_only:
        gpus = [d for d in gpus if not _rocm(d)]
    if min_cuda_compute_capability is not None:
        wanted = tuple(min_cuda_compute_capability)
        gpus = [d for d in gpus if _capability(d) >= wanted]
    return bool(gpus)


def _rocm(device):
    return "rocm" in str(getattr(device.client, "platform_version", "")).lower()


def is_built_with_cuda():
    """Whether JAX's CUDA backend is installed (companion's counterpart of TF's CUDA build)."""
    return any(not _rocm(d) for d in _gpus())


def is_built_with_rocm():
    """Whether JAX's ROCm backend is installed."""
    return any(_rocm(d) for d in _gpus())


def _capability(device):
    return tuple(int(part) for part in str(getattr(device, "compute_capability", "0.0")).split("."))


def is_built_with_gpu_support():
    """Whether a GPU backend (CUDA or ROCm) is installed."""
    return bool(_gpus())


def is_built_with_xla():
    """True: every companion program is compiled by XLA."""
    return True

"""Execution settings read by other parts of companion: eager functions and op determinism.

The settings live in the core's context (`companion._core._context.flags`), where the staging
layer reads them; these functions are their public setters and getters.
"""

from companion._core._context import flags as _Flags


def run_functions_eagerly(run_eagerly):
    """Makes every ``companion.function`` run its Python code eagerly, for debugging.

    With ``True``, decorated functions run op by op like undecorated ones (``print``
    prints each call, breakpoints work); nothing is traced or compiled.

    Example:
        >>> import companion as tf
        >>> tf.config.run_functions_eagerly(True)
        >>> tf.config.functions_run_eagerly()
        True
        >>> tf.config.run_functions_eagerly(False)
    """
    _Flags.run_functions_eagerly = bool(run_eagerly)


def functions_run_eagerly():
    """The value set by `run_functions_eagerly` (False by default)."""
    return _Flags.run_functions_eagerly


def enable_op_determinism():
    """Records that ops must be deterministic; XLA already is on CPU and TPU.

    On GPUs, XLA chooses deterministic kernels only when the environment variable
    ``XLA_FLAGS=--xla_gpu_deterministic_ops=true`` is set before importing companion;
    this function cannot change that afterwards. Seed random ops with
    ``companion.random.set_seed`` as well.
    """
    _Flags.op_determinism = True


def disable_op_determinism():
    """Undoes `enable_op_determinism` (the recorded flag only)."""
    _Flags.op_determinism = False


def is_op_determinism_enabled():
    """Whether `enable_op_determinism` was called (and not undone)."""
    return _Flags.op_determinism

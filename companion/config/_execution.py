"""Execution settings read by other parts of companion: eager functions, op determinism, TF32.

The settings live in the core's context (`companion._core._context.flags`), where the staging
layer reads them; these functions are their public setters and getters.
"""

import jax as _jax

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


def enable_tensor_float_32_execution(enabled):
    """Lets float32 matrix products and convolutions on recent NVIDIA GPUs use TensorFloat-32.

    TF32 keeps float32's range but only about 10 bits of mantissa in the products: on Ampere and
    later GPUs it is much faster, and results differ from full float32 in the 4th significant
    digit. TensorFlow turns it on by default; companion does NOT, so a GPU gives the same answers
    as a CPU to float32 rounding (the labs' checks and the grader compare to 1e-6). Call
    ``enable_tensor_float_32_execution(True)`` for TensorFlow's speed and precision. On CPUs nothing
    changes; on TPUs float32 products likewise use full-precision passes unless this is turned on.
    Programs already compiled keep the setting they were compiled with.

    Example:
        >>> import companion as tf
        >>> tf.config.experimental.tensor_float_32_execution_enabled()
        False
    """
    _jax.config.update("jax_default_matmul_precision", None if enabled else "highest")


def tensor_float_32_execution_enabled():
    """Whether TF32 may be used (see `enable_tensor_float_32_execution`; False by default)."""
    return _jax.config.jax_default_matmul_precision != "highest"

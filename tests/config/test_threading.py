"""`config.threading`: thread-pool sizes kept before the runtime starts and refused after, as in TF 2.21
(each case that needs a fresh runtime runs in a fresh interpreter); and the deprecated
`experimental_run_functions_eagerly` pair."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import companion as tf

ROOT = Path(__file__).resolve().parents[2]

_BEFORE = """
import companion as tf
threading = tf.config.threading
print(threading.get_inter_op_parallelism_threads(), threading.get_intra_op_parallelism_threads())
tf.config.list_physical_devices("CPU")
threading.set_inter_op_parallelism_threads(2)
threading.set_intra_op_parallelism_threads(4)
print(threading.get_inter_op_parallelism_threads(), threading.get_intra_op_parallelism_threads())
print(tf.constant(1.0) + 1)
"""
# TF 2.21 prints these
_TF_BEFORE = "0 0\n2 4\ncompanion.Tensor(2.0, shape=(), dtype=float32)\n"


def _run(code):
    environment = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "PJRT_NPROC")}
    environment.update(JAX_PLATFORMS="cpu")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                            env=environment, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_set_before_the_first_tensor():
    assert _run(_BEFORE) == _TF_BEFORE


def test_refused_after_the_first_tensor():
    print(tf.constant(1.0) + 1)  # an op ran: its program was compiled, its result is gone
    with pytest.raises(RuntimeError, match="Intra op parallelism cannot be modified after initialization"):
        tf.config.threading.set_intra_op_parallelism_threads(2)
    with pytest.raises(RuntimeError, match="Inter op parallelism cannot be modified after initialization"):
        tf.config.threading.set_inter_op_parallelism_threads(0)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 0
    assert sorted(n for n in dir(tf.config.threading) if not n.startswith("_")) == [
        "get_inter_op_parallelism_threads", "get_intra_op_parallelism_threads",
        "set_inter_op_parallelism_threads", "set_intra_op_parallelism_threads"]


def test_experimental_run_functions_eagerly():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x + 1

    try:
        tf.config.experimental_run_functions_eagerly(True)
        assert tf.config.experimental_functions_run_eagerly() is True
        assert tf.config.functions_run_eagerly() is True
        f(tf.constant(1))
        f(tf.constant(2))
        assert len(calls) == 2  # eager: the Python body runs on every call
    finally:
        tf.config.experimental_run_functions_eagerly(False)
    assert tf.config.experimental_functions_run_eagerly() is False

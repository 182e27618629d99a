"""`data.experimental.enable_debug_mode`: dataset functions are traced when made and then run eagerly on
every element, as TF 2.21 prints (a fresh interpreter: the mode is for the process)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import companion as tf

ROOT = Path(__file__).resolve().parents[2]

_PROGRAM = """
import companion as tf
tf.data.experimental.enable_debug_mode()
def f(x):
    print("x is", x)
    return x * 2
ds = tf.data.Dataset.range(3).map(f)
print("made")
print(list(ds.as_numpy_iterator()))
ds2 = tf.data.Dataset.range(4).filter(lambda x: x % 2 == 0)
ds2 = ds2.map(lambda x: x + 1, num_parallel_calls=tf.data.AUTOTUNE)
print(list(ds2.batch(2).as_numpy_iterator()))
"""
# TF 2.21 prints these (its "tf.Tensor" read as companion's)
_TF_OUTPUT = """x is Tensor("args_0:0", shape=(), dtype=int64)
made
x is companion.Tensor(0, shape=(), dtype=int64)
x is companion.Tensor(1, shape=(), dtype=int64)
x is companion.Tensor(2, shape=(), dtype=int64)
[np.int64(0), np.int64(2), np.int64(4)]
[array([1, 3])]
"""


def test_functions_run_eagerly_on_every_element():
    environment = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "PJRT_NPROC")}
    environment.update(JAX_PLATFORMS="cpu")
    result = subprocess.run([sys.executable, "-c", _PROGRAM], capture_output=True, text=True, cwd=ROOT,
                            env=environment, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout == _TF_OUTPUT


def test_only_in_eager_mode():
    @tf.function
    def g():
        tf.data.experimental.enable_debug_mode()
        return 1

    with pytest.raises(ValueError, match="only supported in eager mode"):
        g()

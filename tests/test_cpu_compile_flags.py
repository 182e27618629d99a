"""Importing companion asks XLA's CPU compiler for its cheaper-to-compile classic emitters, unless
``XLA_FLAGS`` already decides; programs compiled that way give the same numbers."""

import os
import subprocess
import sys

import numpy as np

import companion as tf

_PROGRAM = """
import os, sys
import companion as tf
x = tf.constant([[0.5, -1.25, 3.0]])
w = tf.Variable([[1.0], [2.0], [-0.5]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.tanh(x @ w) * tf.exp(x))
print(os.environ["XLA_FLAGS"])
print(repr(float(y)), repr(tape.gradient(y, w).numpy().ravel().tolist()))
"""


def _run(xla_flags):
    environment = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    if xla_flags is not None:
        environment["XLA_FLAGS"] = xla_flags
    done = subprocess.run([sys.executable, "-c", _PROGRAM], env=environment, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    flags, numbers = done.stdout.strip().splitlines()
    return flags, numbers


def test_the_classic_emitters_are_asked_for_by_default():
    flags, _ = _run(None)
    assert flags == "--xla_cpu_use_fusion_emitters=false"
    flags, _ = _run("--xla_force_host_platform_device_count=1")
    assert flags.split() == ["--xla_force_host_platform_device_count=1",
                             "--xla_cpu_use_fusion_emitters=false"]


def test_a_setting_of_the_users_own_is_kept_and_the_numbers_agree():
    default_flags, default_numbers = _run(None)
    own_flags, own_numbers = _run("--xla_cpu_use_fusion_emitters=true")
    assert own_flags == "--xla_cpu_use_fusion_emitters=true"
    x = np.array([[0.5, -1.25, 3.0]])
    s = (x @ np.array([[1.0], [2.0], [-0.5]]))[0, 0]
    value = float(np.sum(np.tanh(s) * np.exp(x)))
    gradient = (1 - np.tanh(s) ** 2) * np.sum(np.exp(x)) * x.ravel()
    for numbers in (default_numbers, own_numbers):
        y, grad = numbers.split(" ", 1)
        np.testing.assert_allclose(float(y), value, rtol=1e-6)
        np.testing.assert_allclose(eval(grad), gradient, rtol=1e-4)  # noqa: S307 - 1 - tanh² in float32


def test_this_process_runs_with_the_setting():
    assert "--xla_cpu_use_fusion_emitters" in os.environ["XLA_FLAGS"]
    assert float(tf.exp(tf.constant(0.0))) == 1.0

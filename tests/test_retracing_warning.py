"""TF's warning when a function traces on 5 of its last 10 calls (TF 2.21's observed counts)."""

import logging
import re
import subprocess
import sys

import pytest

import companion as tf


@pytest.fixture
def logged(caplog):
    def texts():
        return [re.sub("0x[0-9a-f]+", "ADDR", r.getMessage()).split(" triggered")[0]
                for r in caplog.records if r.name == "tensorflow"]

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        yield texts


def test_a_new_shape_on_every_other_call_warns_twice(logged):
    @tf.function
    def f(x):
        return x * 2

    for i in range(14):
        f(tf.constant([1.0] * (i // 2 + 1)))
    assert logged() == ["5 out of the last 9 calls to <function "
                        "test_a_new_shape_on_every_other_call_warns_twice.<locals>.f at ADDR>",
                        "6 out of the last 11 calls to <function "
                        "test_a_new_shape_on_every_other_call_warns_twice.<locals>.f at ADDR>"]


def test_functions_made_again_around_one_python_function_count_together(logged):
    def h(x):
        return x - 1

    for _ in range(7):
        tf.function(h)(tf.constant(1.0))
    assert [text.split(" calls")[0] for text in logged()] == ["5 out of the last 5", "6 out of the last 6"]


def test_calls_that_reuse_a_trace_keep_the_traces_apart(logged):
    @tf.function
    def f(x):
        return x + 1

    for i in range(40):
        f(tf.constant([1.0] * (i // 4 + 1)))  # a trace every 4th call: at most 3 in any 10 calls
    assert logged() == []


def test_companion_s_own_functions_count_but_never_warn(logged):
    namespace = {"__name__": "companion.keras.models._example"}
    exec("def step(x):\n    return x + 1\n", namespace)  # a function defined in a companion module
    for i in range(7):
        tf.function(namespace["step"], autograph=False)(tf.constant([1.0] * (i + 1)))
    assert logged() == []


def test_the_logger_writes_tf_s_format_to_stderr():
    code = "import companion as tf; tf.get_logger().warning('hello %d', 3); tf.get_logger().info('hidden')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "WARNING:tensorflow:hello 3" and "hidden" not in done.stderr
    assert done.stdout == ""

"""Harness of lecture lab L2 (XLA): counting the fusions XLA makes of a compiled function.

Each case names a small program from a fixed catalogue and the shape of its float32 inputs;
the harness builds it as a fresh ``companion.function(jit_compile=True)``, calls the learner's
``count_fusions(function, *inputs)`` once and returns what it gave. Nothing here counts
fusions: the expected counts come from the solution notebook.
"""

from __future__ import annotations

import numpy as np

import companion as tf


def _programs():
    return {
        "sum_xyz": (3, lambda x, y, z: tf.reduce_sum(x + y * z)),
        "matmul_relu": (2, lambda x, w: tf.nn.relu(tf.matmul(x, w) + 1.0)),
        "softmax": (1, lambda x: tf.nn.softmax(x)),
        "elementwise": (2, lambda x, y: tf.exp(x) * tf.tanh(y) - x),
        "softmax_normalize": (1, lambda x: tf.nn.softmax(_normalize(x))),
        "log_softmax": (1, lambda x: tf.nn.log_softmax(x)),
        "three_softmax": (1, lambda x: tf.nn.softmax(tf.nn.softmax(tf.nn.softmax(x, axis=0), axis=1),
                                                      axis=0)),
    }


def _normalize(x):
    return (x - tf.reduce_mean(x, axis=0)) / (tf.math.reduce_std(x, axis=0) + 1e-3)


def count_fusions(count, program, shape, seed) -> dict:
    """`count_fusions(fn, *inputs)` for catalogue program ``program`` on float32 inputs of ``shape``."""
    arity, body = _programs()[program]
    function = tf.function(body, jit_compile=True)
    rng = np.random.default_rng(seed)
    inputs = [tf.constant(rng.normal(size=shape).astype(np.float32)) for _ in range(arity)]
    if program == "matmul_relu":
        inputs[1] = tf.constant(rng.normal(size=(shape[1], 5)).astype(np.float32))
    result = count(function, *inputs)
    return {"type": type(result).__name__, "fusions": result}

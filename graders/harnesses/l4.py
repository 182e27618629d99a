"""Harnesses of lecture lab L4 (dropout and batch norm): inverted dropout by hand, batch norm at inference.

Each call turns the case's plain arrays into companion tensors (as the notebook passes them),
calls the learner's function once and returns what it gave back. Nothing here computes the
expected values: those come from the solution notebook.
"""

from __future__ import annotations

import numpy as np

import companion as tf


def inverted_dropout(function, x, keep_mask, rate) -> dict:
    """`inverted_dropout(x, keep_mask, rate)` with float32 ``x`` and a bool ``keep_mask`` tensor."""
    x, keep_mask = tf.constant(np.asarray(x, np.float32)), tf.constant(np.asarray(keep_mask, bool))
    return {"output": function(x, keep_mask, float(rate))}


def batch_norm_inference(function, x, moving_mean, moving_variance, gamma, beta, epsilon) -> dict:
    """`batch_norm_inference(x, moving_mean, moving_variance, gamma, beta, epsilon)` on float32 tensors."""
    tensors = [tf.constant(np.asarray(value, np.float32)) for value in (x, moving_mean, moving_variance,
                                                                         gamma, beta)]
    return {"output": function(*tensors, float(epsilon))}

"""Public checks for lecture lab L4 (dropout and batch norm): inverted dropout, batch norm at inference.

In the notebook, after an exercise cell::

    from graders.l4 import check
    check("inverted_dropout", inverted_dropout)

Each case passes fixed float32 tensors (built by `graders.harnesses.l4`) to your function and
compares what it returns with what the solution notebook returned, stored in
``graders/expected/l4.json``. The autograder runs other, hidden cases in the same way.
"""

from __future__ import annotations

import numpy as np

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case

__all__ = ["CHECKS", "EXERCISES", "check"]

RULE = Rule(rtol=1e-5, atol=1e-6)
_X = np.arange(1, 13, dtype=np.float32).reshape(3, 4) / 4
_MASK = np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 0, 1]], bool)
_BN_X = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -2.0], [3.0, 1.0, 0.25], [-0.5, 2.5, 1.0]], np.float32)

_DROPOUT_HINTS = {
    "output:type": "Return a companion tensor: build the result with companion ops (tf.cast, *, /), "
                   "not with .numpy().",
    "output:dtype": "Cast the boolean mask to x.dtype (float32) before multiplying.",
    "output:shape": "Multiply element by element: the mask has the same shape as x.",
    "output:value": "Dropped units (mask False) become 0; kept units are divided by the keep probability "
                    "1 - rate, so the expected value of every unit stays the same.",
}
_BN_HINTS = {
    "output:type": "Return a companion tensor computed with companion ops, not a NumPy array.",
    "output:shape": "Every statistic has one value per feature (the last axis): they broadcast over the "
                    "batch rows of x without reshaping.",
    "output:value": "At inference batch norm uses the moving statistics it was given, never the batch's own "
                    "mean and variance; epsilon goes inside the square root, next to the variance, and "
                    "gamma scales the normalized value before beta shifts it.",
}

CHECKS = PublicChecks("l4", (
    PublicExercise("inverted_dropout", (
        PublicCase("inverted_dropout(x, keep_mask, rate=0.5): x of shape (3, 4), 8 of 12 units kept",
                   case(_X, _MASK, 0.5)),
        PublicCase("inverted_dropout(x, keep_mask, rate=0.2): x of shape (2, 3), all units kept",
                   case(-_X[:2, :3], np.ones((2, 3), bool), 0.2)),
    ), harness="l4.inverted_dropout", rule=RULE, hints=_DROPOUT_HINTS),
    PublicExercise("batch_norm_inference", (
        PublicCase("batch_norm_inference(x, moving_mean=[1, 0.5, -0.5], moving_variance=[4, 1, 0.25], "
                   "gamma=[1, 2, 0.5], beta=[0, -1, 1], epsilon=0.001): x of shape (4, 3)",
                   case(_BN_X, [1.0, 0.5, -0.5], [4.0, 1.0, 0.25], [1.0, 2.0, 0.5], [0.0, -1.0, 1.0], 0.001)),
        PublicCase("batch_norm_inference(x, moving_mean=0, moving_variance=1, gamma=1, beta=0, epsilon=0.1): "
                   "the initial statistics of a new layer, x of shape (4, 3)",
                   case(_BN_X, [0.0] * 3, [1.0] * 3, [1.0] * 3, [0.0] * 3, 0.1)),
    ), harness="l4.batch_norm_inference", rule=RULE, hints=_BN_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

"""Public checks for lecture lab L2 (XLA): counting fusions in a function's optimized HLO.

In the notebook, after the exercise cell::

    from graders.l2 import check
    check("count_fusions", count_fusions)

Each case builds a small ``companion.function(jit_compile=True)`` (`graders.harnesses.l2`),
passes it and its inputs to your function and compares the number it returns with what the
solution notebook returned, stored in ``graders/expected/l2.json``. The autograder runs other,
hidden programs in the same way.
"""

from __future__ import annotations

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case

__all__ = ["CHECKS", "EXERCISES", "check"]

_HINTS = {
    "type:value": "Return a Python int (len(...) of a list, or a count), not a string or a tensor.",
    "fusions:value": "Count the instructions whose opcode is `fusion` inside the ENTRY computation of "
                     "stage='optimized_hlo' only: the fused computations themselves (`%fused_computation`) "
                     "and attributes like `kind=kLoop` are not extra kernels, and stage='hlo' has no "
                     "fusions yet.",
}

CHECKS = PublicChecks("l2", (
    PublicExercise("count_fusions", (
        PublicCase("count_fusions(reduce_sum(x + y * z), x, y, z): three float32 inputs of shape (64, 64)",
                   case("sum_xyz", (64, 64), 0)),
        PublicCase("count_fusions(relu(x @ w + 1), x, w): x of shape (8, 16), w of shape (16, 5)",
                   case("matmul_relu", (8, 16), 1)),
    ), harness="l2.count_fusions", rule=Rule(), hints=_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

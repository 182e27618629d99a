"""Public checks for lecture lab L3 (input pipelines): an epoch's modelled time, interleave's order.

In the notebook, after an exercise cell::

    from graders.l3 import check
    check("epoch_time", epoch_time)

Each case passes fixed plain values (through `graders.harnesses.l3`) to your function and compares
what it returns with what the solution notebook returned, stored in ``graders/expected/l3.json``.
The autograder runs other, hidden cases in the same way.
"""

from __future__ import annotations

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case

__all__ = ["CHECKS", "EXERCISES", "check"]

_EPOCH_HINTS = {
    "seconds:type": "Return a number of seconds (a Python float), not a list, a string or None.",
    "seconds:value": "Without prefetch each element costs a read and then a training step, one after the "
                     "other. With prefetch only the first element is read while training waits; after that "
                     "reading the next element overlaps training on the current one, so each further "
                     "element costs the slower of the two. The open is paid once per epoch, before the "
                     "first read, in both cases.",
}
_ORDER_HINTS = {
    "number of elements:value": "Every element of every file appears exactly once: the total is "
                                "sum(lengths).",
    "order:type": "Return a list of (file, position) pairs.",
    "order:length": "Every element of every file appears exactly once: the total is sum(lengths).",
    "order:value": "Keep cycle_length slots. Take up to block_length elements from the current slot, then "
                   "move to the next slot. An empty slot is filled with the next file (and read at once); a "
                   "file that has no more elements frees its slot and the cycle moves on.",
}

CHECKS = PublicChecks("l3", (
    PublicExercise("epoch_time", (
        PublicCase("epoch_time(10, open_s=0.1, read_s=0.02, train_s=0.01, prefetch=False)",
                   case(10, 0.1, 0.02, 0.01, False)),
        PublicCase("epoch_time(10, open_s=0.1, read_s=0.02, train_s=0.01, prefetch=True): reading is slower",
                   case(10, 0.1, 0.02, 0.01, True)),
        PublicCase("epoch_time(5, open_s=0.0, read_s=0.01, train_s=0.03, prefetch=True): training is slower",
                   case(5, 0.0, 0.01, 0.03, True)),
    ), harness="l3.epoch_time", rule=Rule(rtol=1e-9, atol=1e-12), hints=_EPOCH_HINTS),
    PublicExercise("interleave_order", (
        PublicCase("interleave_order([3, 2, 4], cycle_length=2, block_length=1)", case([3, 2, 4], 2, 1)),
        PublicCase("interleave_order([3, 1, 4, 2, 0, 3], cycle_length=2, block_length=2): files of different "
                   "lengths, one empty", case([3, 1, 4, 2, 0, 3], 2, 2)),
    ), harness="l3.interleave_order", rule=Rule(), hints=_ORDER_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

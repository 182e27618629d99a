"""Public checks for lecture lab L6 (parameter servers vs all-reduce): traffic per step, async staleness.

In the notebook, after an exercise cell::

    from graders.l6 import check
    check("parameter_server_bytes", parameter_server_bytes)

Each case passes fixed numbers (a model size, a number of workers, ...) to your function and
compares what it returns with what the solution notebook returned, stored in
``graders/expected/l6.json``. The autograder runs other, hidden cases in the same way.
"""

from __future__ import annotations

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case

__all__ = ["CHECKS", "EXERCISES", "check"]

BYTES = Rule(rtol=1e-9, atol=1e-6)

_RING_HINTS = {
    "bytes": "A ring all-reduce is a reduce-scatter then an all-gather: in each, a worker sends one of its W "
             "chunks (N/W values) in each of W - 1 steps. Multiply by the bytes per value; one worker "
             "alone sends nothing.",
}
_PS_HINTS = {
    "keys": "Return a dict with exactly the keys 'per_worker', 'per_ps' and 'total'.",
    "per_worker": "A worker sends its gradients once per step: one value per parameter (what it receives, "
                  "the parameters, is counted by the servers).",
    "per_ps": "The variables are split evenly over the parameter servers: each server sends its share of "
              "the parameters to every worker.",
    "total": "Count every transfer once: each worker pushes its gradients and pulls the parameters.",
}
_ASYNC_HINTS = {
    "number of updates": "Return two lists with one entry per update: num_updates entries each.",
    "workers": "Each update comes from the worker whose gradient is ready first (finish time, then the "
               "lower worker index on a tie); a worker starts its next gradient at the time its update "
               "was applied.",
    "staleness": "Staleness is the number of updates applied between the moment the worker read the "
                 "parameters and the moment its own update is applied; a worker reads them again right "
                 "after its own update, so the first update has staleness 0.",
}

CHECKS = PublicChecks("l6", (
    PublicExercise("ring_allreduce_bytes_per_worker", (
        PublicCase("ring_allreduce_bytes_per_worker(1000, 4, 4)", case(1000, 4, 4)),
        PublicCase("ring_allreduce_bytes_per_worker(10, 1, 4): one worker alone", case(10, 1, 4)),
        PublicCase("ring_allreduce_bytes_per_worker(25_000_000, 8, 2)", case(25_000_000, 8, 2)),
    ), harness="l6.ring_allreduce_bytes_per_worker", rule=BYTES, hints=_RING_HINTS),
    PublicExercise("parameter_server_bytes", (
        PublicCase("parameter_server_bytes(1000, 4, 1, 4)", case(1000, 4, 1, 4)),
        PublicCase("parameter_server_bytes(10_000, 6, 4, 2)", case(10_000, 6, 4, 2)),
    ), harness="l6.parameter_server_bytes", rule=BYTES, hints=_PS_HINTS),
    PublicExercise("simulate_async_sgd", (
        PublicCase("simulate_async_sgd([1.0, 1.0, 1.0], 7): three workers of the same speed",
                   case([1.0, 1.0, 1.0], 7)),
        PublicCase("simulate_async_sgd([1.0, 2.0], 6): worker 1 is twice as slow", case([1.0, 2.0], 6)),
        PublicCase("simulate_async_sgd([0.5, 1.25, 0.75, 3.0], 12)", case([0.5, 1.25, 0.75, 3.0], 12)),
    ), harness="l6.simulate_async_sgd", hints=_ASYNC_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

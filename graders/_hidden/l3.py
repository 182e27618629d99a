"""Hidden cases of lecture lab L3 (input pipelines): an epoch's modelled time, interleave's order.

Generated for each grading run from the run's seed: latencies where reading is slower than
training and the other way round, with and without prefetch, a one-element epoch; file lengths
including empty files, cycles longer than the number of files and blocks longer than a file.
"""

from pathlib import Path

from graders._spec import Assignment, Exercise, Rule, case

RULE = Rule(rtol=1e-9, atol=1e-12)


def _epoch_cases(rng):
    cases = []
    for n, prefetch, read_slower in ((None, True, True), (None, True, False), (None, False, None),
                                     (1, True, None)):
        n = int(rng.integers(2, 60)) if n is None else n
        fast, slow = sorted(float(x) for x in rng.uniform(0.001, 0.2, size=2))
        read_s, train_s = (slow, fast) if read_slower else (fast, slow)
        if read_slower is None:
            read_s, train_s = (slow, fast) if rng.uniform() < 0.5 else (fast, slow)
        cases.append(case(n, float(rng.uniform(0.0, 0.5)), read_s, train_s, prefetch))
    return tuple(cases)


def _interleave_cases(rng):
    cases = []
    for files, cycle, block in ((6, 2, 2), (4, 5, 1), (7, 3, 3), (5, 1, 2)):
        lengths = [int(n) for n in rng.integers(0, 6, size=files)]
        lengths[int(rng.integers(files))] = 0  # an empty file: its slot is refilled at once
        cases.append(case(lengths, cycle, block))
    return tuple(cases)


ASSIGNMENT = Assignment(
    name="l3",
    solution=Path("solutions/lectures/L3_input_pipelines.ipynb"),
    exercises=(
        Exercise("epoch_time", cases=_epoch_cases, harness="l3.epoch_time", rule=RULE,
                 hint="Without prefetch every step reads then trains; with it, after the first element the "
                      "slower of reading and training sets the pace. The open happens once per epoch."),
        Exercise("interleave_order", cases=_interleave_cases, harness="l3.interleave_order", rule=Rule(),
                 hint="Keep cycle_length slots; take block_length elements from a slot, then move to the "
                      "next; an exhausted slot is refilled with the next file when the cycle comes back."),
    ),
)

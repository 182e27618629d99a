"""Hidden cases of lecture lab L6 (parameter servers vs all-reduce): traffic models and async staleness.

Generated for each grading run from the run's seed: random model sizes (up to a billion
parameters), numbers of workers, parameter servers and bytes per value, so no table of answers
can pass; one worker alone is always among the ring cases, and every parameter-server case has
2 or more servers (so forgetting to split the variables over them fails every case). The
simulation cases draw random step times (so no two workers finish at the same moment) and always
include a straggler 3 to 5 times slower than the others, whose gradients are the stalest.
"""

from pathlib import Path

from graders._spec import Assignment, Exercise, Rule, case

BYTES = Rule(rtol=1e-9, atol=1e-6)


def _ring_cases(rng):
    sizes = rng.integers(1, 10**9, size=4)
    workers = [1, *rng.integers(2, 65, size=3)]
    return tuple(case(int(n), int(w), int(rng.choice([1, 2, 4, 8]))) for n, w in zip(sizes, workers))


def _ps_cases(rng):
    return tuple(case(int(rng.integers(1, 10**9)), int(rng.integers(1, 65)), int(num_ps),
                      int(rng.choice([1, 2, 4, 8])))
                 for num_ps in rng.integers(2, 9, size=3))


def _async_cases(rng):
    cases = []
    for workers, updates in ((2, 9), (int(rng.integers(3, 7)), 25), (int(rng.integers(5, 9)), 40)):
        times = rng.uniform(0.5, 2.0, size=workers)
        times[rng.integers(workers)] = times.max() * rng.uniform(3.0, 5.0)  # a straggler
        cases.append(case([float(t) for t in times], updates))
    return tuple(cases)


ASSIGNMENT = Assignment(
    name="l6",
    solution=Path("solutions/lectures/L6_parameter_servers_vs_allreduce.ipynb"),
    exercises=(
        Exercise("ring_allreduce_bytes_per_worker", cases=_ring_cases,
                 harness="l6.ring_allreduce_bytes_per_worker", rule=BYTES,
                 hint="Reduce-scatter and all-gather each take W - 1 steps in which a worker sends one "
                      "chunk of N / W values; one worker alone sends nothing."),
        Exercise("parameter_server_bytes", cases=_ps_cases, harness="l6.parameter_server_bytes", rule=BYTES,
                 hint="A worker sends N values of gradients; each server sends its N / P share of the "
                      "parameters to each of the W workers; the total counts every push and pull once."),
        Exercise("simulate_async_sgd", cases=_async_cases, harness="l6.simulate_async_sgd",
                 hint="Always apply the gradient that is ready first; staleness is the number of updates "
                      "applied since that worker read the parameters."),
    ),
    host_devices=4,
)

"""Hidden cases of lecture lab L4 (dropout and batch norm): inverted dropout, batch norm at inference.

Generated for each grading run from the run's seed: random inputs, masks, rates and statistics,
including a batch of one row (where a batch's own variance is 0) and rates close to 0 and 1.
"""

from pathlib import Path

from graders._spec import Assignment, Exercise, Rule, case

RULE = Rule(rtol=1e-5, atol=1e-5)


def _dropout_cases(rng):
    cases = []
    for rows, cols, rate in ((5, 7, None), (1, 9, 0.9), (4, 4, 0.05), (6, 3, None)):
        rate = float(rng.uniform(0.1, 0.7)) if rate is None else rate
        x = rng.normal(size=(rows, cols)).astype("float32")
        keep = rng.uniform(size=(rows, cols)) >= rate
        for row in range(rows):  # every row keeps one unit and drops another: scaling and dropping both show
            kept, dropped = rng.permutation(cols)[:2]
            keep[row, kept], keep[row, dropped] = True, False
        cases.append(case(x, keep, rate))
    return tuple(cases)


def _batch_norm_cases(rng):
    cases = []
    for rows, features in ((6, 4), (1, 5), (9, 2)):
        x = rng.normal(loc=2.0, scale=3.0, size=(rows, features)).astype("float32")
        mean = rng.normal(size=features).astype("float32")
        variance = rng.uniform(0.2, 5.0, size=features).astype("float32")
        gamma = rng.uniform(0.5, 2.0, size=features).astype("float32")
        beta = rng.normal(size=features).astype("float32")
        cases.append(case(x, mean, variance, gamma, beta, float(rng.choice([1e-3, 1e-2, 0.5]))))
    return tuple(cases)


ASSIGNMENT = Assignment(
    name="l4",
    solution=Path("solutions/lectures/L4_dropout_and_batch_norm.ipynb"),
    exercises=(
        Exercise("inverted_dropout", cases=_dropout_cases, harness="l4.inverted_dropout", rule=RULE,
                 hint="Zero the units whose mask is False and divide the kept ones by 1 - rate, with "
                      "companion ops, keeping x's dtype."),
        Exercise("batch_norm_inference", cases=_batch_norm_cases, harness="l4.batch_norm_inference",
                 rule=RULE,
                 hint="Use the moving statistics given, not the batch's own, with epsilon added to the "
                      "variance under the square root; then scale by gamma and shift by beta."),
    ),
)

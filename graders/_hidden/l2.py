"""Hidden cases of lecture lab L2 (XLA): fusion counts of programs the public checks do not show.

Each program has a different fusion count (3, 1, 6, 2, 9 with companion's setting of XLA's CPU
compiler, its classic emitters, and its correctly rounded division), so an answer that returns a
constant passes at most one case (tests/graders/test_l2.py checks this). None has 0 fusions: counting
the word "fusion" in the text would give that one right.
"""

from pathlib import Path

from graders._spec import Assignment, Exercise, Rule, case

ASSIGNMENT = Assignment(
    name="l2",
    solution=Path("solutions/lectures/L2_xla.ipynb"),
    exercises=(
        Exercise("count_fusions", cases=(
            case("softmax", (4, 10), 11),
            case("elementwise", (32, 32), 12),
            case("softmax_normalize", (16, 8), 13),
            case("log_softmax", (20, 6), 14),
            case("three_softmax", (12, 9), 15),
        ), harness="l2.count_fusions", rule=Rule(),
            hint="Parse stage='optimized_hlo' and count the `fusion` instructions of its ENTRY computation "
                 "only."),
    ),
)

"""Public checks for lecture lab L5 (embeddings): cosine similarities and a word's nearest neighbours.

In the notebook, after an exercise cell::

    from graders.l5 import check
    check("nearest_neighbours", nearest_neighbours)

Each case passes a small fixed embedding matrix (a float32 companion tensor) to your function and
compares what it returns with what the solution notebook returned, stored in
``graders/expected/l5.json``. The autograder runs other, hidden cases in the same way.
"""

from __future__ import annotations

import numpy as np

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case

__all__ = ["CHECKS", "EXERCISES", "check"]

RULE = Rule(rtol=1e-5, atol=1e-6)
# rows of very different lengths: a dot product ranks them differently than the cosine does
_TABLE = np.array([[1.0, 0.0, 0.0], [10.0, 1.0, 0.0], [0.6, 0.6, 0.0], [0.0, 3.0, 0.1],
                   [0.3, 0.01, 0.0], [0.9, 0.1, 0.3]], np.float32)
_FOUR = np.array([[2.0, 2.0], [1.0, 0.0], [0.0, -5.0], [0.5, 0.6]], np.float32)

_COSINE_HINTS = {
    "similarities:type": "Return a companion tensor computed with companion ops, not a NumPy array or list.",
    "similarities:shape": "Return one similarity per word: a vector with one entry per row of the table.",
    "similarities:value": "The cosine divides each dot product by the lengths of both vectors: normalize the "
                          "rows (and the word's vector) to length 1 first. The word itself gets 1.0.",
}
_NEIGHBOUR_HINTS = {
    "number of neighbours": "Return exactly k word indices, and leave the word itself out.",
    "neighbours": "Rank the other words by cosine similarity, most similar first, and leave the word itself "
                  "out (its similarity to itself is always the largest).",
}

CHECKS = PublicChecks("l5", (
    PublicExercise("cosine_similarities", (
        PublicCase("cosine_similarities(table, index=0): a (6, 3) table whose rows have different lengths",
                   case(_TABLE, 0)),
        PublicCase("cosine_similarities(table, index=3): a (4, 2) table", case(_FOUR, 3)),
    ), harness="l5.cosine_similarities", rule=RULE, hints=_COSINE_HINTS),
    PublicExercise("nearest_neighbours", (
        PublicCase("nearest_neighbours(table, index=0, k=3): the (6, 3) table", case(_TABLE, 0, 3)),
        PublicCase("nearest_neighbours(table, index=1, k=2): a (4, 2) table", case(_FOUR, 1, 2)),
    ), harness="l5.nearest_neighbours", rule=RULE, hints=_NEIGHBOUR_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

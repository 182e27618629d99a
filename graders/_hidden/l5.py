"""Hidden cases of lecture lab L5 (embeddings): cosine similarities and a word's nearest neighbours.

Generated for each grading run from the run's seed: random embedding tables whose rows are
scaled to very different lengths (so ranking by dot product or by distance differs from ranking
by cosine), random words and neighbour counts.
"""

from pathlib import Path

from graders._spec import Assignment, Exercise, Rule, case

RULE = Rule(rtol=1e-5, atol=1e-5)


def _table(rng, words, dim):
    directions = rng.normal(size=(words, dim))
    return (directions * rng.uniform(0.2, 8.0, size=(words, 1))).astype("float32")


def _cosine_cases(rng):
    return tuple(case(_table(rng, words, dim), int(rng.integers(words)))
                 for words, dim in ((12, 4), (7, 8), (20, 3)))


def _neighbour_cases(rng):
    return tuple(case(_table(rng, words, dim), int(rng.integers(words)), k)
                 for words, dim, k in ((15, 5, 4), (9, 3, 1), (30, 6, 8)))


ASSIGNMENT = Assignment(
    name="l5",
    solution=Path("solutions/lectures/L5_embeddings.ipynb"),
    exercises=(
        Exercise("cosine_similarities", cases=_cosine_cases, harness="l5.cosine_similarities", rule=RULE,
                 hint="Divide every dot product by both vectors' lengths (normalize the rows first); return "
                      "one float32 similarity per word as a companion tensor."),
        Exercise("nearest_neighbours", cases=_neighbour_cases, harness="l5.nearest_neighbours", rule=RULE,
                 hint="Rank the other words by cosine similarity, most similar first, leave the word itself "
                      "out and return k indices."),
    ),
)

"""Hidden cases of lecture lab L1 (TF1 graphs and sessions): a graph run in a Session, and its TF2 function.

Generated for each grading run from the run's seed: random data and initial values with 1 to 5
features and 1 to 7 rows (a batch of one row included), unlike the public cases' fixed arrays.
"""

from pathlib import Path

from graders._spec import Assignment, Exercise, Rule, case

RULE = Rule(rtol=1e-4, atol=1e-5)


def _data(rng, rows, features):
    x = rng.normal(size=(rows, features)).astype("float32")
    y = rng.normal(size=(rows, 1)).astype("float32")
    return x, y


def _initial(rng, features):
    return rng.normal(size=(features, 1)).astype("float32"), rng.normal(size=(1,)).astype("float32")


def _graph_cases(rng):
    cases = []
    for rows, features in ((5, 4), (1, 3), (7, 1), (3, 5)):
        cases.append(case(*_data(rng, rows, features), *_initial(rng, features)))
    return tuple(cases)


def _tf2_cases(rng):
    cases = []
    for features, sizes in ((2, (6, 3)), (4, (1, 5)), (1, (3, 3))):
        batches = [_data(rng, rows, features) for rows in sizes]
        new_w = rng.normal(size=(features, 1)).astype("float32")
        cases.append(case(*_initial(rng, features), batches, new_w))
    return tuple(cases)


ASSIGNMENT = Assignment(
    name="l1",
    solution=Path("solutions/lectures/L1_tf1_graphs_and_sessions.ipynb"),
    exercises=(
        Exercise("squared_error_graph", cases=_graph_cases, harness="l1.squared_error_graph", rule=RULE,
                 hint="Build placeholders x and y (None rows), Variables w and b, prediction = x @ w + b and "
                      "the mean squared error in the graph; in a Session run the initializer, then fetch "
                      "both with a feed_dict."),
        Exercise("squared_error_tf2", cases=_tf2_cases, harness="l1.squared_error_tf2", rule=RULE,
                 hint="Create tf.Variables from w_init and b_init and return a tf.function of (x, y) that "
                      "reads them and returns (prediction, mean squared error)."),
    ),
)

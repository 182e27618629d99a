"""Public checks for lecture lab L1 (TF1 graphs and sessions): a graph run in a Session, and its TF2 function.

In the notebook, after an exercise cell::

    from graders.l1 import check
    check("squared_error_graph", squared_error_graph)

Each case passes fixed float32 arrays (built by `graders.harnesses.l1`) to your function and
compares what it returns (and, for the graph, its placeholders and Variables) with what the
solution notebook returned, stored in ``graders/expected/l1.json``. The autograder runs other,
hidden cases in the same way.
"""

from __future__ import annotations

import numpy as np

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case

__all__ = ["CHECKS", "EXERCISES", "check"]

RULE = Rule(rtol=1e-5, atol=1e-6)
_X = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 2.0], [3.0, 0.5, -0.5], [-2.0, 1.0, 1.0]], np.float32)
_Y = np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32)
_W = np.array([[0.5], [-0.25], [1.0]], np.float32)

_GRAPH_HINTS = {
    "returned": "Keep the lab's `return graph, prediction_value, loss_value` line: three items.",
    "graph": "Return the tf.Graph you built the ops in (the `graph` the lab creates), not a Session or a "
             "tensor.",
    "placeholders": "x and y are fed, so they are placeholders: tf.compat.v1.placeholder(tf.float32, "
                    "shape=[None, ...]) with None as the batch dimension (any number of rows) and the "
                    "number of columns of the data. A tf.constant holding the data is not fed.",
    "variables": "w and b are tf.Variable(...)s created inside `with graph.as_default():` from w_init and "
                 "b_init, with dtype float32.",
    "prediction:type": "Return what sess.run gives back (NumPy values), not the symbolic tensors.",
    "loss:type": "Return what sess.run gives back (NumPy values), not the symbolic tensors.",
    "prediction:value": "The prediction is x @ w + b (tf.matmul, then add b): one value per row.",
    "loss:value": "The loss is the mean, over the rows, of the squared error (prediction - y) ** 2: "
                  "tf.reduce_mean(tf.square(...)), not a sum.",
    "raised": "A FailedPreconditionError means a Variable has no value in the Session yet: run "
              "tf.compat.v1.global_variables_initializer() first; an InvalidArgumentError about a "
              "placeholder means it was not fed: fetch with feed_dict={x: ..., y: ...}.",
}
_TF2_HINTS = {
    "returned": "Keep the lab's `return w, b, compute` line: three items.",
    "w and b are Variables": "Create w and b with tf.Variable(...): in TF2 the Variables live in Python "
                             "objects, not in a Session.",
    "compute": "Wrap the Python function with tf.function: compute = tf.function(squared_error).",
    "outputs per batch": "compute(x, y) returns a pair: (prediction, loss).",
    "predictions:value": "The prediction is x @ w + b (tf.matmul, then add b): one value per row.",
    "losses:value": "The loss is the mean, over the rows, of the squared error: "
                    "tf.reduce_mean(tf.square(prediction - y)).",
    "loss after w.assign:value": "Use the Variables w and b inside the function, not NumPy copies of "
                                 "w_init and b_init: the function must read their current values at "
                                 "every call, so an assign changes its result.",
}

CHECKS = PublicChecks("l1", (
    PublicExercise("squared_error_graph", (
        PublicCase("squared_error_graph(x, y, w_init, b_init): x of shape (4, 3), y of shape (4, 1), "
                   "w_init of shape (3, 1), b_init=[0.5]",
                   case(_X, _Y, _W, np.array([0.5], np.float32))),
        PublicCase("squared_error_graph(x, y, w_init, b_init): x of shape (2, 2), y of shape (2, 1), "
                   "w_init=[[1], [2]], b_init=[-1]",
                   case(_X[:2, :2], _Y[:2] + 1.0, np.array([[1.0], [2.0]], np.float32),
                        np.array([-1.0], np.float32))),
    ), harness="l1.squared_error_graph", rule=RULE, hints=_GRAPH_HINTS),
    PublicExercise("squared_error_tf2", (
        PublicCase("squared_error_tf2(w_init, b_init) with w_init of shape (3, 1), b_init=[0.5]; then "
                   "compute(x, y) on a batch of 4 rows and one of 1 row, and again on the first after "
                   "w.assign(...)",
                   case(_W, np.array([0.5], np.float32), [(_X, _Y), (_X[2:3] * 2.0, _Y[2:3])],
                        np.array([[1.0], [1.0], [1.0]], np.float32))),
    ), harness="l1.squared_error_tf2", rule=RULE, hints=_TF2_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

"""Public checks for the Week 2 assignment (C2W2): the F1 metric, one training step, one epoch.

In the notebook, after an exercise cell::

    from graders.c2w2 import check
    check("apply_gradient", apply_gradient)

Each case starts from fresh objects built by `graders.harnesses.c2w2` (the assignment's model with
fixed weights, `RMSprop(0.001)`, `BinaryCrossentropy()`), calls your code once and compares what it
returned and what it changed (weights, optimizer steps, metric updates) with what the solution
notebook produced, stored in ``graders/expected/c2w2.json``. The autograder runs other, hidden
cases: passing these is necessary, not sufficient.
"""

from __future__ import annotations

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case
from graders.harnesses.c2w2 import fixture

__all__ = ["CHECKS", "EXERCISES", "check"]

TRAINING_RULE = Rule(rtol=1e-4, atol=1e-5)
_STEP = fixture(seed=2022, rows=8)
_EPOCH = fixture(seed=7, rows=10)

_F1_HINTS = {
    "is a keras Metric": "Keep `class F1Score(tf.keras.metrics.Metric):` as the lab gives it.",
    "result:type": "result() returns the companion Tensor computed from the counts; don't convert it with "
                   ".numpy() or float().",
    "result:dtype": "tp / (tp + fp) divides two int32 tensors, which gives float64 (as in TensorFlow): "
                    "don't cast the counts.",
    "result:value": "precision = tp / (tp + fp) and recall = tp / (tp + fn), each 1.0 when its "
                    "denominator is 0; then F1 = 2 * precision * recall / (precision + recall). tn plays "
                    "no part.",
    "raised": "The `where` line is the line of your code that failed. Compare tensors with ==, and use "
              "self.tp, self.fp and self.fn (Variables) in result().",
}
_STEP_HINTS = {
    "optimizer steps": "Call optimizer.apply_gradients(...) exactly once: optimizer.iterations counts the "
                       "updates (0 means the weights were never updated, 2 means updated twice).",
    "returned values:type": "Return the pair (logits, loss_value): the model's output on x and the loss, "
                            "both companion tensors.",
    "returned values:length": "Return the pair (logits, loss_value).",
    "returned values:value": "Compute logits = model(x) and loss_value = loss_object(y_true=y, "
                             "y_pred=logits) inside the tape; check the order of y_true and y_pred.",
    "weights after the step": "The update used other gradients: take tape.gradient(loss_value, "
                              "model.trainable_weights) and apply zip(gradients, model.trainable_weights) "
                              "with the optimizer you were given.",
}
_EPOCH_HINTS = {
    "list of losses": "Append each batch's loss_value to `losses` and return the list (one loss per batch).",
    "optimizer steps": "Call apply_gradient(optimizer, loss_object, model, x_batch_train, y_batch_train) "
                       "once per batch: it applies the gradients.",
    "accuracy metric state": "Call train_acc_metric.update_state(y_batch_train, logits) once per batch: "
                             "true labels first, then the rounded int64 logits.",
    "F1 metric updates:length": "Call train_f1score_metric.update_state(...) once per batch.",
    "F1 metric updates": "Pass the true labels first and the predictions second: "
                         "update_state(y_batch_train, logits), after rounding and casting the logits.",
    "losses": "Append the loss_value returned by apply_gradient for each batch.",
    "weights after the epoch": "Train on each batch once, in order, with the optimizer you were given.",
}

CHECKS = PublicChecks("c2w2", (
    PublicExercise("F1Score", (
        PublicCase("F1Score() with tp=2, fp=5, tn=7, fn=9, then .result()", case((2, 5, 7, 9), True)),
        PublicCase("F1Score() with tp=6, fp=2, tn=10, fn=0, then .result()", case((6, 2, 10, 0), True)),
        PublicCase("F1Score() with tp=0, fp=0, tn=4, fn=3 (no positive prediction), then .result()",
                   case((0, 0, 4, 3), True)),
    ), harness="c2w2.f1_score", hints=_F1_HINTS),
    PublicExercise("apply_gradient", (
        PublicCase("apply_gradient(RMSprop(0.001), BinaryCrossentropy(), model, x, y): one step from fixed "
                   "weights on 8 rows (x float64 of shape (8, 30), y int64 of shape (8,))",
                   case(_STEP["weights"], _STEP["x"], _STEP["y"])),
    ), harness="c2w2.apply_gradient", rule=TRAINING_RULE, hints=_STEP_HINTS),
    PublicExercise("train_data_for_one_epoch", (
        PublicCase("train_data_for_one_epoch(dataset, RMSprop(0.001), BinaryCrossentropy(), model, "
                   "BinaryAccuracy(), f1_metric, verbose=False): 10 rows in batches of 4, 4 and 2",
                   case(_EPOCH["weights"], _EPOCH["x"], _EPOCH["y"], 4)),
    ), harness="c2w2.train_data_for_one_epoch", rule=TRAINING_RULE, hints=_EPOCH_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

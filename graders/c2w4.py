"""Public checks for the Week 4 assignment (C2W4): distributed custom training with a MirroredStrategy.

In the notebook, after an exercise cell::

    from graders.c2w4 import check
    check("train_test_step_fns", train_test_step_fns)

Each case builds, with `graders.harnesses.c2w4`, its own `MirroredStrategy` over the first CPU devices
(4 unless the case says otherwise: the notebook forces 4 before `import companion`), a small classifier
with fixed weights, an optimizer and the metrics, calls your code once, runs what it returned on
datasets whose last batch does not split evenly over the replicas, and compares the results (each
replica's loss, the weights, the optimizer's step count, the metrics' totals) with what the solution
notebook produced, stored in ``graders/expected/c2w4.json``. The autograder runs other, hidden cases
in the same way, also on 4 devices: passing these is necessary, not sufficient.
"""

from __future__ import annotations

import numpy as np

from graders._public import PublicCase, PublicChecks, PublicExercise
from graders._spec import Rule, case
from graders.harnesses.c2w4 import fixture

__all__ = ["CHECKS", "EXERCISES", "check"]

TRAINING_RULE = Rule(rtol=1e-4, atol=1e-5)
_STEPS = fixture(seed=2024, train_rows=11, test_rows=6)
_DISTRIBUTED = fixture(seed=2025, train_rows=11, test_rows=6)
_IDS = np.arange(20, dtype=np.int64)

_DEVICES = ("This kernel has fewer CPU devices than the test's replicas. The first code cell must add "
            "--xla_force_host_platform_device_count=4 to XLA_FLAGS before `import companion` (XLA reads it "
            "once, at start-up): keep that cell, restart the kernel and run the notebook from the top.")

_BATCH_HINTS = {
    "replicas": _DEVICES,
    "global batch size:type": "Return a Python int (the product of two ints), not a tensor or a float.",
    "global batch size": "The global batch size counts the examples of one step on all replicas together: "
                         "the per-replica batch size times the number of replicas of the strategy passed "
                         "in (its num_replicas_in_sync). The tests pass strategies of several sizes.",
}
_DATASET_HINTS = {
    "replicas": _DEVICES,
    "returned": "Keep the lab's return line: the three distributed datasets (train, validation, test).",
    "distributed datasets": "Each returned dataset must be a DistributedDataset, made by the strategy's "
                            "experimental_distribute_dataset from the matching batched dataset.",
    "train shares": "The training batches were not split as expected: distribute train_batches with the "
                    "`strategy` argument (the tests pass strategies with other numbers of replicas than "
                    "the notebook's).",
    "validation shares": "Distribute validation_batches (the second argument after the strategy) with the "
                         "`strategy` argument, and return it second.",
    "test shares": "Distribute test_batches with the `strategy` argument, and return it last.",
}
_STEP_HINTS = {
    "replicas": _DEVICES,
    "optimizer steps": "train_step must update the weights exactly once per call, with the optimizer "
                       "passed in: apply the gradients with optimizer.apply_gradients, pairing each "
                       "gradient with its variable (zip). 0 steps means no update was applied.",
    "per-replica training losses:shape": "Each replica's loss is a scalar: use compute_loss(labels, "
                                         "predictions). The loss object (Reduction.NONE) alone gives one "
                                         "loss per example.",
    "per-replica training losses": "Each replica's loss must be compute_loss(labels, predictions), the "
                                   "function passed in: it divides the sum of the replica's per-example "
                                   "losses by the GLOBAL batch size. A mean over the replica's own share "
                                   "(tf.reduce_mean, or compute_average_loss without global_batch_size) "
                                   "divides by the per-replica batch instead, which differs on the uneven "
                                   "last batch.",
    "weights after training": "The update used other gradients: compute the loss inside the tape, take "
                              "tape.gradient(loss, model.trainable_variables) and apply those gradients to "
                              "model.trainable_variables.",
    "train accuracy totals": "Compute predictions = model(images, training=True) with the model passed in, "
                             "inside the tape; the given code updates train_accuracy with them.",
    "test loss totals": "In test_step, t_loss is the per-example loss from loss_object(labels, "
                        "predictions) (Reduction.NONE): the test_loss metric, a Mean, averages it over all "
                        "replicas. compute_loss would divide by the global batch size first.",
    "test accuracy totals": "In test_step, compute predictions = model(images, training=False) with the "
                            "model passed in.",
}
_DISTRIBUTED_HINTS = {
    "replicas": _DEVICES,
    "training losses:type": "distributed_train_step must return one tensor, the replicas' losses combined "
                            "by strategy.reduce: strategy.run alone returns a per-replica value.",
    "training losses:none": "distributed_train_step must return the combined loss: assign it to `loss`, "
                            "which the given code returns.",
    "training losses": "Run train_step on every replica with strategy.run(train_step, "
                       "args=(dataset_inputs,)) and combine the per-replica losses with strategy.reduce "
                       "over the replicas (axis=None). Each replica's loss is already divided by the "
                       "global batch size, so ReduceOp.SUM gives the mean loss of the batch; ReduceOp.MEAN "
                       "divides by the number of replicas once more.",
    "train accuracy totals": "Run the train_step passed in (the tests pass their own) exactly once per "
                             "call, on every replica, with strategy.run.",
    "test loss totals": "distributed_test_step must run the test_step passed in on every replica with "
                        "strategy.run(test_step, args=(dataset_inputs,)).",
    "test accuracy totals": "distributed_test_step must run the test_step passed in on every replica with "
                            "strategy.run(test_step, args=(dataset_inputs,)).",
    "tf.function": "Keep the @tf.function decorator on both distributed steps: each step, all replicas and "
                   "the all-reduce, is then traced once per input shape and compiled into one program.",
    "raised": "The `where` line is the line of your code that failed. A distributed batch holds per-replica "
              "values: only strategy.run(step, args=(dataset_inputs,)) hands each replica its share, so "
              "calling the step directly on it fails.",
}

CHECKS = PublicChecks("c2w4", (
    PublicExercise("set_global_batch_size", (
        PublicCase("set_global_batch_size(16, strategy), strategy: a MirroredStrategy of 4 replicas",
                   case(16, 4)),
        PublicCase("set_global_batch_size(10, strategy), strategy: a MirroredStrategy of 2 replicas",
                   case(10, 2)),
    ), harness="c2w4.set_global_batch_size", hints=_BATCH_HINTS),
    PublicExercise("distribute_datasets", (
        PublicCase("distribute_datasets(strategy, train_batches, validation_batches, test_batches) on 4 "
                   "replicas: (id, label) pairs, train ids 0-9 in batches of 8, validation ids 10-14 in "
                   "batches of 4, test ids 15-17 in batches of 1; each batch's ids listed per replica",
                   case(4, (_IDS[:10], _IDS[:10] % 5, 8), (_IDS[10:15], _IDS[10:15] % 5, 4),
                        (_IDS[15:18], _IDS[15:18] % 5, 1))),
    ), harness="c2w4.distribute_datasets", hints=_DATASET_HINTS),
    PublicExercise("train_test_step_fns", (
        PublicCase("train_test_step_fns(strategy, model, compute_loss, Adam(), ...) on 4 replicas, global "
                   "batch 8: train_step run with strategy.run on 11 images (batches of 8 and 3), test_step "
                   "on 6",
                   case(4, 8, _STEPS["weights"], _STEPS["train"], _STEPS["test"], "adam")),
    ), harness="c2w4.train_test_step_fns", rule=TRAINING_RULE, hints=_STEP_HINTS),
    PublicExercise("distributed_train_test_step_fns", (
        PublicCase("distributed_train_test_step_fns(strategy, train_step, test_step, ...) on 4 replicas, "
                   "global batch 8, with the test's own step bodies: distributed_train_step on 11 images "
                   "(batches of 8 and 3), distributed_test_step on 6",
                   case(4, 8, _DISTRIBUTED["weights"], _DISTRIBUTED["train"], _DISTRIBUTED["test"])),
    ), harness="c2w4.distributed_train_test_step_fns", rule=TRAINING_RULE, hints=_DISTRIBUTED_HINTS),
))
EXERCISES = tuple(CHECKS.exercises)
check = CHECKS.check

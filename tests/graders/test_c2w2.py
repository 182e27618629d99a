"""Week 2 (C2W2): public checks in the kernel, and the grader on stateful mistakes (CLI, real children)."""


import numpy as np
import pytest

import companion as tf
from graders import c2w2
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_with_cli, variant

SOLUTION = ROOT / "solutions" / "week2" / "C2W2_Assignment.ipynb"
LAST_CHECK = 'check("train_data_for_one_epoch"'


class F1Score(tf.keras.metrics.Metric):
    """The course's metric, with a result() that a test can swap."""

    def __init__(self, name="f1_score", **kwargs):
        super().__init__(name=name, **kwargs)
        self.tp, self.fp = tf.Variable(0, dtype="int32"), tf.Variable(0, dtype="int32")
        self.tn, self.fn = tf.Variable(0, dtype="int32"), tf.Variable(0, dtype="int32")

    def result(self):
        precision = 1.0 if self.tp + self.fp == 0 else self.tp / (self.tp + self.fp)
        recall = 1.0 if self.tp + self.fn == 0 else self.tp / (self.tp + self.fn)
        return 2 * ((precision * recall) / (precision + recall))


def apply_gradient(optimizer, loss_object, model, x, y):
    with tf.GradientTape() as tape:
        logits = model(x)
        loss_value = loss_object(y_true=y, y_pred=logits)
    gradients = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(gradients, model.trainable_weights))
    return logits, loss_value


def epoch_with(step=apply_gradient, skip_f1=False, swap=False):
    def train_data_for_one_epoch(dataset, optimizer, loss_object, model, acc, f1, verbose=True):
        losses = []
        for x, y in dataset:
            logits, loss_value = step(optimizer, loss_object, model, x, y)
            losses.append(loss_value)
            logits = tf.cast(tf.round(logits), "int64")
            acc.update_state(*((logits, y) if swap else (y, logits)))
            if not skip_f1:
                f1.update_state(*((logits, y) if swap else (y, logits)))
        return losses

    return train_data_for_one_epoch


def test_the_course_value_of_the_f1_score():
    """COURSE.md: tp=2, fp=5, tn=7, fn=9 gives 2/9 as a float64 scalar tensor."""
    metric = F1Score()
    metric.tp.assign(2), metric.fp.assign(5), metric.tn.assign(7), metric.fn.assign(9)
    result = metric.result()
    assert result.dtype == tf.float64 and result.shape == ()
    np.testing.assert_allclose(result.numpy(), 2 / 9, rtol=1e-15)


@pytest.mark.parametrize("exercise, obj", [("F1Score", F1Score), ("apply_gradient", apply_gradient),
                                           ("train_data_for_one_epoch", epoch_with())])
def test_correct_code_passes_the_public_checks(exercise, obj, capsys):
    c2w2.check(exercise, obj)
    assert capsys.readouterr().out.endswith("public tests passed\n")


def _no_update(optimizer, loss_object, model, x, y):
    logits = model(x)
    return logits, loss_object(y, logits)


def _twice(optimizer, loss_object, model, x, y):
    apply_gradient(optimizer, loss_object, model, x, y)
    return apply_gradient(optimizer, loss_object, model, x, y)


def _own_optimizer(optimizer, loss_object, model, x, y):
    return apply_gradient(tf.keras.optimizers.SGD(0.01), loss_object, model, x, y)


def _swapped_loss(optimizer, loss_object, model, x, y):
    with tf.GradientTape() as tape:
        logits = model(x)
        loss_value = loss_object(logits, tf.cast(tf.reshape(y, (-1, 1)), tf.float32))
    gradients = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(gradients, model.trainable_weights))
    return logits, loss_value


def _numpy_results(optimizer, loss_object, model, x, y):
    logits, loss_value = apply_gradient(optimizer, loss_object, model, x, y)
    return logits.numpy(), loss_value.numpy()


class _Float32F1(F1Score):
    def result(self):
        return tf.cast(super().result(), tf.float32)


class _NoFallback(F1Score):
    def result(self):
        precision = self.tp / (self.tp + self.fp)
        recall = self.tp / (self.tp + self.fn)
        return 2 * ((precision * recall) / (precision + recall))


@pytest.mark.parametrize("exercise, obj, words", [
    ("apply_gradient", _no_update, "in optimizer steps"),
    ("apply_gradient", _twice, "in optimizer steps"),
    ("apply_gradient", _own_optimizer, "in optimizer steps"),
    ("apply_gradient", _swapped_loss, "in returned values"),
    ("apply_gradient", _numpy_results, "in returned values"),
    ("train_data_for_one_epoch", epoch_with(_no_update), "in optimizer steps"),
    ("train_data_for_one_epoch", epoch_with(skip_f1=True), "in F1 metric updates"),
    ("train_data_for_one_epoch", epoch_with(swap=True), "in F1 metric updates"),
    ("train_data_for_one_epoch", epoch_with(_twice), "in optimizer steps"),
    ("F1Score", _Float32F1, "in result: wrong dtype float32 (expected float64)"),
    ("F1Score", _NoFallback, "public test 3 of 3 failed in result"),
])
def test_each_mistake_fails_its_public_check_with_a_hint_for_it(exercise, obj, words):
    with pytest.raises(AssertionError) as failure:
        c2w2.check(exercise, obj)
    message = str(failure.value)
    assert words in message and "\nHint: " in message, message
    field = words.split(" in ", 1)[1].split(":")[0] if " in " in words else None
    hints = c2w2.CHECKS.exercises[exercise].hints
    if field in hints:
        assert hints[field] in message


MISTAKES = {
    "no_update": {"apply_gradient": """
        def apply_gradient(optimizer, loss_object, model, x, y):
            logits = model(x)
            loss_value = loss_object(y_true=y, y_pred=logits)
            return logits, loss_value
        """},
    "trains_twice": {"apply_gradient": """
        def apply_gradient(optimizer, loss_object, model, x, y):
            for _ in range(2):
                with tf.GradientTape() as tape:
                    logits = model(x)
                    loss_value = loss_object(y_true=y, y_pred=logits)
                gradients = tape.gradient(loss_value, model.trainable_weights)
                optimizer.apply_gradients(zip(gradients, model.trainable_weights))
            return logits, loss_value
        """},
    "own_optimizer": {"apply_gradient": """
        _mine = tf.keras.optimizers.RMSprop(learning_rate=0.001)
        def apply_gradient(optimizer, loss_object, model, x, y):
            with tf.GradientTape() as tape:
                logits = model(x)
                loss_value = loss_object(y_true=y, y_pred=logits)
            gradients = tape.gradient(loss_value, model.trainable_weights)
            _mine.apply_gradients(zip(gradients, model.trainable_weights))
            return logits, loss_value
        """},
    "skips_f1_update": {"train_data_for_one_epoch": """
        def train_data_for_one_epoch(train_dataset, optimizer, loss_object, model,
                                     train_acc_metric, train_f1score_metric, verbose=True):
            losses = []
            for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
                logits, loss_value = apply_gradient(optimizer, loss_object, model, x_batch_train,
                                                    y_batch_train)
                losses.append(loss_value)
                logits = tf.cast(tf.round(logits), "int64")
                train_acc_metric.update_state(y_batch_train, logits)
            return losses
        """},
    "right_shapes_no_training": {"train_data_for_one_epoch": """
        def train_data_for_one_epoch(train_dataset, optimizer, loss_object, model,
                                     train_acc_metric, train_f1score_metric, verbose=True):
            losses = []
            for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
                logits = model(x_batch_train)
                losses.append(loss_object(y_true=y_batch_train, y_pred=logits))
                logits = tf.cast(tf.round(logits), "int64")
                train_acc_metric.update_state(y_batch_train, logits)
                train_f1score_metric.update_state(y_batch_train, logits)
            return losses
        """},
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The whole solution and lab, and each mistake (cut after the last check), graded in one CLI run."""
    base = tmp_path_factory.mktemp("c2w2")
    subs = base / "subs"
    variant(SOLUTION, subs / "honest.ipynb")
    variant(ROOT / "labs" / "week2" / "C2W2_Assignment.ipynb", subs / "blank.ipynb")
    for name, replace in MISTAKES.items():
        variant(SOLUTION, subs / f"{name}.ipynb", replace, stop_after=LAST_CHECK)
    return grade_with_cli("c2w2", subs, base, timeout=900)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "c2w2")


@pytest.mark.slow
@pytest.mark.notebook
@pytest.mark.parametrize("name, exercise", [
    ("no_update", "apply_gradient"), ("trains_twice", "apply_gradient"), ("own_optimizer", "apply_gradient"),
    ("skips_f1_update", "train_data_for_one_epoch"), ("right_shapes_no_training", "train_data_for_one_epoch"),
])
def test_a_stateful_mistake_earns_nothing_for_its_exercise(graded, name, exercise):
    scores = graded(name)
    assert scores[exercise] == 0
    assert scores["F1Score"] == 1.0

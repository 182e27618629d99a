"""Lecture lab L4 (dropout and batch norm): public checks in the kernel, and the grader from the CLI."""

import numpy as np
import pytest

import companion as tf
from graders import l4
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_lab_variants

SOLUTION = ROOT / "solutions" / "lectures" / "L4_dropout_and_batch_norm.ipynb"
LAST_CHECK = 'check("batch_norm_inference"'


def inverted_dropout(x, keep_mask, rate):
    return x * tf.cast(keep_mask, x.dtype) / (1.0 - rate)


def batch_norm_inference(x, moving_mean, moving_variance, gamma, beta, epsilon):
    return gamma * (x - moving_mean) / tf.sqrt(moving_variance + epsilon) + beta


def test_inverted_dropout_agrees_with_the_layer():
    """The reference function reproduces Dropout's training output for the layer's own mask."""
    x = tf.random.uniform([4, 5], 1.0, 2.0)
    out = tf.keras.layers.Dropout(0.4, seed=3)(x, training=True)
    mask = tf.keras.layers.Dropout(0.4, seed=3)(tf.ones_like(x), training=True) != 0
    np.testing.assert_allclose(inverted_dropout(x, mask, 0.4).numpy(), out.numpy(), rtol=1e-6)


@pytest.mark.parametrize("exercise, obj", [("inverted_dropout", inverted_dropout),
                                           ("batch_norm_inference", batch_norm_inference)])
def test_correct_code_passes_the_public_checks(exercise, obj, capsys):
    l4.check(exercise, obj)
    assert capsys.readouterr().out.endswith("public tests passed\n")


def _no_scaling(x, keep_mask, rate):
    return x * tf.cast(keep_mask, x.dtype)


def _times_keep(x, keep_mask, rate):
    return x * tf.cast(keep_mask, x.dtype) * (1.0 - rate)


def _numpy_dropout(x, keep_mask, rate):
    return x.numpy() * keep_mask.numpy() / (1.0 - rate)


def _batch_statistics(x, moving_mean, moving_variance, gamma, beta, epsilon):
    mean, variance = tf.nn.moments(x, axes=[0])
    return gamma * (x - mean) / tf.sqrt(variance + epsilon) + beta


def _no_epsilon(x, moving_mean, moving_variance, gamma, beta, epsilon):
    return gamma * (x - moving_mean) / tf.sqrt(moving_variance) + beta


def _no_square_root(x, moving_mean, moving_variance, gamma, beta, epsilon):
    return gamma * (x - moving_mean) / (moving_variance + epsilon) + beta


@pytest.mark.parametrize("exercise, obj, words", [
    ("inverted_dropout", _no_scaling, "in output"),
    ("inverted_dropout", _times_keep, "in output"),
    ("inverted_dropout", _numpy_dropout, "in output: it returned a numpy.ndarray"),
    ("batch_norm_inference", _batch_statistics, "in output"),
    ("batch_norm_inference", _no_epsilon, "in output"),
    ("batch_norm_inference", _no_square_root, "in output"),
])
def test_each_mistake_fails_its_public_check_with_a_hint_for_it(exercise, obj, words):
    with pytest.raises(AssertionError) as failure:
        l4.check(exercise, obj)
    message = str(failure.value)
    assert words in message and "\nHint: " in message, message


MISTAKES = {
    "no_scaling": {"inverted_dropout": """
        def inverted_dropout(x, keep_mask, rate):
            return x * tf.cast(keep_mask, x.dtype)
        """},
    "batch_statistics": {"batch_norm_inference": """
        def batch_norm_inference(x, moving_mean, moving_variance, gamma, beta, epsilon):
            mean, variance = tf.nn.moments(x, axes=[0])
            return gamma * (x - mean) / tf.sqrt(variance + epsilon) + beta
        """},
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The solution (cut after its last check), the lab and each mistake, graded in one CLI run."""
    return grade_lab_variants("l4", SOLUTION, ROOT / "labs" / "lectures" / SOLUTION.name, MISTAKES,
                              tmp_path_factory.mktemp("l4"), stop_after=LAST_CHECK)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "l4")


@pytest.mark.slow
@pytest.mark.notebook
@pytest.mark.parametrize("name, exercise, other", [("no_scaling", "inverted_dropout", "batch_norm_inference"),
                                                   ("batch_statistics", "batch_norm_inference",
                                                    "inverted_dropout")])
def test_a_mistake_earns_nothing_for_its_exercise(graded, name, exercise, other):
    scores = graded(name)
    assert scores[exercise] == 0
    assert scores[other] == 1.0

"""Lecture lab L5 (embeddings): public checks in the kernel, and the grader from the CLI."""

import numpy as np
import pytest

import companion as tf
from graders import l5
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_lab_variants

SOLUTION = ROOT / "solutions" / "lectures" / "L5_embeddings.ipynb"
LAST_CHECK = 'check("nearest_neighbours"'


def cosine_similarities(embeddings, index):
    unit_rows = tf.math.l2_normalize(embeddings, axis=1)
    return tf.linalg.matvec(unit_rows, unit_rows[index])


def nearest_neighbours(embeddings, index, k):
    order = tf.argsort(cosine_similarities(embeddings, index), direction="DESCENDING")
    return [int(i) for i in order.numpy() if i != index][:k]


def test_the_reference_functions_agree_with_numpy():
    table = np.random.default_rng(1).normal(size=(9, 4)).astype(np.float32)
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    expected = unit @ unit[2]
    np.testing.assert_allclose(cosine_similarities(tf.constant(table), 2).numpy(), expected, rtol=1e-5,
                               atol=1e-6)  # float32 rounding near 0 (one value is -0.0035)
    assert nearest_neighbours(tf.constant(table), 2, 3) == [i for i in np.argsort(-expected) if i != 2][:3]


@pytest.mark.parametrize("exercise, obj", [("cosine_similarities", cosine_similarities),
                                           ("nearest_neighbours", nearest_neighbours)])
def test_correct_code_passes_the_public_checks(exercise, obj, capsys):
    l5.check(exercise, obj)
    assert capsys.readouterr().out.endswith("public tests passed\n")


def _dot_products(embeddings, index):
    return tf.linalg.matvec(embeddings, embeddings[index])


def _one_side_normalized(embeddings, index):
    return tf.linalg.matvec(tf.math.l2_normalize(embeddings, axis=1), embeddings[index])


def _with_itself(embeddings, index, k):
    order = tf.argsort(cosine_similarities(embeddings, index), direction="DESCENDING")
    return [int(i) for i in order.numpy()][:k]


def _by_dot_product(embeddings, index, k):
    order = tf.argsort(_dot_products(embeddings, index), direction="DESCENDING")
    return [int(i) for i in order.numpy() if i != index][:k]


def _least_similar(embeddings, index, k):
    order = tf.argsort(cosine_similarities(embeddings, index))
    return [int(i) for i in order.numpy() if i != index][:k]


@pytest.mark.parametrize("exercise, obj, words", [
    ("cosine_similarities", _dot_products, "in similarities"),
    ("cosine_similarities", _one_side_normalized, "in similarities"),
    ("nearest_neighbours", _with_itself, "in neighbours"),
    ("nearest_neighbours", _by_dot_product, "in neighbours"),
    ("nearest_neighbours", _least_similar, "in neighbours"),
])
def test_each_mistake_fails_its_public_check_with_a_hint_for_it(exercise, obj, words):
    with pytest.raises(AssertionError) as failure:
        l5.check(exercise, obj)
    message = str(failure.value)
    assert words in message and "\nHint: " in message, message


MISTAKES = {
    "dot_products": {"cosine_similarities": """
        def cosine_similarities(embeddings, index):
            return tf.linalg.matvec(embeddings, embeddings[index])
        """},
    "with_itself": {"nearest_neighbours": """
        def nearest_neighbours(embeddings, index, k):
            order = tf.argsort(cosine_similarities(embeddings, index), direction="DESCENDING")
            return [int(i) for i in order.numpy()][:k]
        """},
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The solution (cut after its last check), the lab and each mistake, graded in one CLI run."""
    return grade_lab_variants("l5", SOLUTION, ROOT / "labs" / "lectures" / SOLUTION.name, MISTAKES,
                              tmp_path_factory.mktemp("l5"), stop_after=LAST_CHECK)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "l5")


@pytest.mark.slow
@pytest.mark.notebook
def test_a_mistake_earns_nothing_for_its_exercise(graded):
    assert graded("dot_products")["cosine_similarities"] == 0
    assert graded("with_itself") == {"cosine_similarities": 1.0, "nearest_neighbours": 0}

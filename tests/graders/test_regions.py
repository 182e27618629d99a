"""Blanking exercise regions: placeholders per assignment, indentation kept, markers checked."""

import ast

import pytest

from graders._errors import NotebookFormatError
from graders._regions import blank_regions, region_texts

SOLUTION = '''def f(x):
    """Doc."""
    ### START CODE HERE ###
    y = x + 1  # comment
    z: int = y * 2
    if z:
        w = 3
    y = y - 1
    ### END CODE HERE ###
    return y
'''


def test_each_assigned_name_at_base_indentation_becomes_one_placeholder():
    lab = blank_regions(SOLUTION)
    assert "    y = None  # YOUR CODE HERE\n    z = None  # YOUR CODE HERE\n" in lab
    assert "w = " not in lab and "x + 1" not in lab and "if z" not in lab
    assert "### START CODE HERE ###" in lab and "### END CODE HERE ###" in lab
    ast.parse(lab)


def test_a_region_without_assignments_becomes_pass_and_stays_valid_python():
    loop = "for i in range(3):\n    ### START CODE HERE ###\n    print(i)\n    ### END CODE HERE ###\n"
    lab = blank_regions(loop)
    assert "    pass  # YOUR CODE HERE\n" in lab
    ast.parse(lab)


def test_an_empty_region_keeps_the_markers_indentation():
    lab = blank_regions("def g():\n    ### START CODE HERE ###\n\n    ### END CODE HERE ###\n")
    assert "\n    pass  # YOUR CODE HERE\n" in lab


def test_blanking_is_idempotent_and_text_outside_regions_is_kept():
    once = blank_regions(SOLUTION)
    assert blank_regions(once) == once
    assert once.startswith('def f(x):\n    """Doc."""\n') and once.endswith("    return y\n")


def test_region_texts_are_the_solution_lines():
    region = "    y = x + 1  # comment\n    z: int = y * 2\n    if z:\n        w = 3\n    y = y - 1\n"
    assert region_texts(SOLUTION) == [region]


@pytest.mark.parametrize("source, problem", [
    ("### START CODE HERE ###\nx = 1\n", "no matching"),
    ("x = 1\n### END CODE HERE ###\n", "never started"),
    ("### START CODE HERE ###\n### START CODE HERE ###\n", "inside another"),
])
def test_unbalanced_markers_are_clear_errors(source, problem):
    with pytest.raises(NotebookFormatError, match=problem):
        blank_regions(source)

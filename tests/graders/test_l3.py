"""Lecture lab L3 (input pipelines): the exercises' semantics, public checks in the kernel, the grader."""

import pytest

import companion as tf
from graders import l3
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_lab_variants

SOLUTION = ROOT / "solutions" / "lectures" / "L3_input_pipelines.ipynb"
LAST_CHECK = 'check("interleave_order"'


def epoch_time(num_elements, open_s, read_s, train_s, prefetch):
    each_next = max(read_s, train_s) if prefetch else read_s + train_s
    return open_s + read_s + train_s + (num_elements - 1) * each_next


def interleave_order(lengths, cycle_length, block_length):
    """A second, independent simulation: a generator per slot, as tf.data's cycle does."""
    slots, files, order = [None] * cycle_length, iter(range(len(lengths))), []
    position, opened, more = 0, 0, True
    while more or opened:
        if slots[position] is None and more:
            file = next(files, None)
            more = file is not None
            if more:
                slots[position], opened = iter([(file, p) for p in range(lengths[file])]), opened + 1
            continue
        taken = 0
        while slots[position] is not None and taken < block_length:
            pair = next(slots[position], None)
            if pair is None:
                slots[position], opened = None, opened - 1
                break
            order.append(pair)
            taken += 1
        position = (position + 1) % cycle_length
    return order


# TF 2.21: tf.data.Dataset.range(len(lengths)).interleave(lambda f: range(lengths[f]) as (f, position),
# cycle_length, block_length) yields these pairs
TF_ORDERS = [
    (([3, 1, 4, 2, 0, 3], 2, 2), [(0, 0), (0, 1), (1, 0), (0, 2), (2, 0), (2, 1), (3, 0), (3, 1), (2, 2),
                                  (2, 3), (5, 0), (5, 1), (5, 2)]),
    (([2, 5, 1, 3], 3, 1), [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (1, 2), (3, 0), (1, 3), (3, 1), (1, 4),
                            (3, 2)]),
    (([4, 4, 4], 1, 3), [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1),
                         (2, 2), (2, 3)]),
]


@pytest.mark.parametrize("args, expected", TF_ORDERS)
def test_the_reference_order_and_companions_interleave_agree_with_tensorflow(args, expected):
    lengths, cycle_length, block_length = args
    assert interleave_order(*args) == expected
    sizes = tf.constant(lengths, tf.int64)

    def numbered_file(f):
        return tf.data.Dataset.range(sizes[f]).map(lambda position: (f, position))

    for parallel in (None, 2):
        ds = tf.data.Dataset.range(len(lengths)).interleave(
            numbered_file, cycle_length=cycle_length, block_length=block_length, num_parallel_calls=parallel)
        assert [(int(f), int(p)) for f, p in ds] == expected


def test_the_epoch_model_matches_a_traced_pipelines_structure():
    """With prefetch, only the first element's read is not overlapped: the rest overlap training."""
    assert epoch_time(1, 0.5, 0.1, 0.2, True) == pytest.approx(0.8)
    assert epoch_time(4, 0.0, 0.1, 0.2, True) == pytest.approx(0.1 + 4 * 0.2)
    assert epoch_time(4, 0.0, 0.3, 0.2, True) == pytest.approx(4 * 0.3 + 0.2)
    assert epoch_time(4, 0.5, 0.1, 0.2, False) == pytest.approx(0.5 + 4 * 0.3)


@pytest.mark.parametrize("exercise, obj", [("epoch_time", epoch_time),
                                           ("interleave_order", interleave_order)])
def test_correct_code_passes_the_public_checks(exercise, obj, capsys):
    l3.check(exercise, obj)
    assert capsys.readouterr().out.endswith("public tests passed\n")


def _open_per_element(num_elements, open_s, read_s, train_s, prefetch):
    each = max(open_s + read_s, train_s) if prefetch else open_s + read_s + train_s
    return num_elements * each


def _prefetch_everything(num_elements, open_s, read_s, train_s, prefetch):
    each = max(read_s, train_s) if prefetch else read_s + train_s
    return open_s + num_elements * each


def _as_text(num_elements, open_s, read_s, train_s, prefetch):
    return f"{epoch_time(num_elements, open_s, read_s, train_s, prefetch):.3f} s"


def _round_robin_ignoring_blocks(lengths, cycle_length, block_length):
    return interleave_order(lengths, cycle_length, 1)


def _one_file_after_another(lengths, cycle_length, block_length):
    return [(f, p) for f, n in enumerate(lengths) for p in range(n)]


def _all_files_in_the_cycle(lengths, cycle_length, block_length):
    return interleave_order(lengths, len(lengths), block_length)


@pytest.mark.parametrize("exercise, obj, words", [
    ("epoch_time", _open_per_element, "in seconds"),
    ("epoch_time", _prefetch_everything, "in seconds"),
    ("epoch_time", _as_text, "in seconds"),
    ("interleave_order", _round_robin_ignoring_blocks, "in order"),
    ("interleave_order", _one_file_after_another, "in order"),
    ("interleave_order", _all_files_in_the_cycle, "in order"),
])
def test_each_mistake_fails_its_public_check_with_a_hint_for_it(exercise, obj, words):
    with pytest.raises(AssertionError) as failure:
        l3.check(exercise, obj)
    message = str(failure.value)
    assert words in message and "\nHint: " in message, message


MISTAKES = {
    "no_overlap": {"epoch_time": """
        def epoch_time(num_elements, open_s, read_s, train_s, prefetch):
            return open_s + num_elements * (read_s + train_s)
        """},
    "no_blocks": {"interleave_order": """
        def interleave_order(lengths, cycle_length, block_length):
            return [(f, p) for f, n in enumerate(lengths) for p in range(n)]
        """},
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The solution (cut after its last check), the lab and each mistake, graded in one CLI run."""
    return grade_lab_variants("l3", SOLUTION, ROOT / "labs" / "lectures" / SOLUTION.name, MISTAKES,
                              tmp_path_factory.mktemp("l3"), stop_after=LAST_CHECK)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "l3")


@pytest.mark.slow
@pytest.mark.notebook
def test_a_mistake_loses_the_hidden_cases_it_gets_wrong(graded):
    # no overlap is right only where prefetch changes nothing: no prefetch, or a single element
    assert graded("no_overlap") == {"epoch_time": 0.5, "interleave_order": 1.0}
    # one file after another is interleave with cycle_length=1 (one hidden case of four)
    scores = graded("no_blocks")
    assert scores["epoch_time"] == 1.0
    assert 0.25 <= scores["interleave_order"] < 1.0

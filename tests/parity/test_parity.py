"""The parity suite: every program in tests/parity prints under companion what it printed under TF 2.21.

Each program runs in this process with `tensorflow` resolved to companion (see _harness.py); its
stdout is compared with the `.out` file recorded from real TensorFlow by `tasks.py record-parity`.
Programs listed in differences.toml are expected to fail (`xfail(strict=True)`), so one that starts
passing must be taken off the list.
"""

import pytest

from tests.parity import _harness

DIFFERENCES = _harness.differences()
LABELS = {"limits": "JAX limit", "design": "by design", "pending": "pending, issue #19"}
KNOWN = {name: f"{LABELS[kind]}: {why}" for kind, table in DIFFERENCES.items() for name, why in table.items()}


def _params():
    for path in _harness.programs():
        name = _harness.program_id(path)
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[name])] if name in KNOWN else []
        yield pytest.param(path, id=name, marks=marks)


@pytest.mark.parametrize("program", list(_params()))
def test_program_prints_what_tensorflow_printed(program, tmp_path):
    expected = _harness.recorded(program)
    assert expected is not None, (f"{program.name} has no recorded output. Run `python tasks.py "
                                  f"record-parity --python PATH {program}` with a python that has TF.")
    actual = _harness.run(program, tmp_path)
    problems = _harness.compare(expected, actual)
    assert not problems, f"{_harness.program_id(program)} differs from TF:\n" + "\n".join(problems)


def test_differences_name_only_existing_programs():
    names = {_harness.program_id(path) for path in _harness.programs()}
    listed = [name for table in DIFFERENCES.values() for name in table]
    assert not set(listed) - names, f"differences.toml lists unknown programs: {sorted(set(listed) - names)}"
    twice = sorted({name for name in listed if listed.count(name) > 1})
    assert not twice, f"listed under more than one heading: {twice}"


@pytest.mark.parametrize(("expected", "actual", "match"), [
    ("Tensor(0.33333334, shape=(), dtype=float32)", "Tensor(0.33333331, shape=(), dtype=float32)", True),
    ("tf.Tensor([1 2], shape=(2,), dtype=int32)", "tf.Tensor([1 3], shape=(2,), dtype=int32)", False),
    ("dtype=float32", "dtype=float64", False),
    ("[1.  2.5]", "[1.   2.5]", True),  # NumPy's column padding
    ("[ 0.         0.       ]", "[ 5.9604645e-08  0.0000000e+00]", True),  # within atol; padding at "]"
    ("Tensor([1. 2.], shape", "Tensor(\n[1.\n 2.], shape", True),  # wrapped by NumPy
    ("1.0", "1", False),  # a float printed as an integer is a dtype difference
    ("0.1235", "0.1234", True),  # the last printed digit of a rounded value
    ("2.", "3.", False),
    ("nan inf -inf", "nan inf -inf", True),
    ("loss: 0.5", "loss 0.5", False),
])
def test_comparer(expected, actual, match):
    assert _harness.lines_match(expected, actual) is match


def test_comparer_reports_the_ending_and_extra_lines():
    problems = _harness.compare(_harness.Outcome("a\nb\n", "ValueError"), _harness.Outcome("a\n"))
    assert "TF raised ValueError, companion exited normally" in problems[0]
    assert "TF printed 1 more line(s), from line 2: b" in problems[1]


# Keras 3.15's `fit(verbose=1)` into a pipe: a first drawing, erased by backspaces and "\r", then
# the final one; styled with ANSI codes; timings that differ from run to run.
KERAS_BAR = ("Epoch 1/2\n\r\x1b[1m1/3\x1b[0m \x1b[32m━━━━━━\x1b[0m\x1b[37m━━━━━━━━━━━━━━\x1b[0m"
             " \x1b[1m1s\x1b[0m 318ms/step - loss: 1.0952" + "\b" * 48
             + "\r\x1b[1m3/3\x1b[0m \x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m\x1b[37m\x1b[0m"
             " \x1b[1m0s\x1b[0m 12ms/step - loss: 1.0820 \n")


def test_comparer_reads_a_progress_bar_as_a_terminal_shows_it_with_timings_as_placeholders():
    shown = "Epoch 1/2\n3/3 ━━━━━━━━━━━━━━━━━━━━ <elapsed> <time>/step - loss: 1.0820 \n"
    assert _harness.as_shown(KERAS_BAR) == shown
    other_run = KERAS_BAR.replace("318ms", "2s").replace("12ms/", "950us/").replace("1s\x1b", "3s\x1b")
    assert not _harness.compare(_harness.Outcome(KERAS_BAR), _harness.Outcome(other_run))
    changed = KERAS_BAR.replace("1.0820 ", "1.0830 ")
    assert _harness.compare(_harness.Outcome(KERAS_BAR), _harness.Outcome(changed))
    # verbose=2's line; a "\r" drawing shorter than the one it overwrites leaves the rest visible
    verbose_2 = "2/2 - 0s - 15ms/step - loss: 0.5\n"
    assert _harness.as_shown(verbose_2) == "2/2 - <elapsed> - <time>/step - loss: 0.5\n"
    assert _harness.as_shown("abcdef\rXY\bZ\n") == "XZcdef\n"

"""keras.utils: to_categorical against NumPy eye indexing, Progbar's text, set_random_seed."""

import io
import random
import re

import numpy as np
import pytest

import companion as tf
from companion.keras.utils import Progbar, _progbar

TIME = r"\d+(us|ms|s)"  # the timing fields vary from run to run


# -- to_categorical -------------------------------------------------------------------------
@pytest.mark.parametrize("labels, shape", [
    ([0, 3, 1, 2], (4,)), ([[0], [2], [1]], (3, 1)), ([[0, 1], [2, 2], [1, 0]], (3, 2)),
])
def test_to_categorical_is_eye_indexing(labels, shape):
    y = np.array(labels).reshape(shape)
    got = tf.keras.utils.to_categorical(y, num_classes=4)
    squeezed = y[..., 0] if shape[-1] == 1 and len(shape) > 1 else y
    np.testing.assert_array_equal(got, np.eye(4, dtype=np.float32)[squeezed])
    assert got.dtype == np.float32


def test_to_categorical_infers_classes_and_takes_dtype_and_tensors():
    got = tf.keras.utils.to_categorical(tf.constant([2, 0]), dtype="int64")
    np.testing.assert_array_equal(got, np.eye(3, dtype=np.int64)[[2, 0]])
    assert got.dtype == np.int64


@pytest.mark.parametrize("labels, num_classes, message", [
    ([0, -1], 3, "min\\(y\\)=-1"), ([0, 3], 3, "max\\(y\\)=3"), ([], None, "num_classes=None"),
])
def test_to_categorical_rejects_bad_labels(labels, num_classes, message):
    with pytest.raises(ValueError, match=message):
        tf.keras.utils.to_categorical(labels, num_classes=num_classes)


# -- set_random_seed ----------------------------------------------------------------------
def test_set_random_seed_repeats_python_numpy_and_companion_numbers():
    def draw():
        return random.random(), np.random.rand(), float(tf.random.uniform([]))

    tf.keras.utils.set_random_seed(11)
    first = draw()
    tf.keras.utils.set_random_seed(11)
    assert draw() == first


def test_set_random_seed_rejects_non_integers():
    with pytest.raises(ValueError, match="seed='1'"):
        tf.keras.utils.set_random_seed("1")


# -- Progbar ----------------------------------------------------------------------------------
@pytest.fixture
def interactive(monkeypatch):
    monkeypatch.setattr(_progbar, "_is_interactive", lambda: True)


@pytest.fixture
def piped(monkeypatch):
    monkeypatch.setattr(_progbar, "_is_interactive", lambda: False)


def _bar(current, target, width=30):
    """Keras's bar, written out: (filled - 1) '=' then '>' (or '=' when done), then dots."""
    filled = width * current // target
    head = "=" * (filled - 1) + ("=" if current == target else ">") if filled else ""
    return f"[{head}{'.' * (width - filled)}]"


def test_final_line_averages_values_over_steps(piped, capsys):
    bar = Progbar(4)
    bar.add(3, [("loss", 1.0), ("acc", 0.5)])
    bar.add(1, [("loss", 3.0), ("acc", 0.5)])
    out = capsys.readouterr().out
    expected = rf"4/4 {re.escape(_bar(4, 4))} - \d+s {TIME}/step - loss: 1\.5000 - acc: 0\.5000\n"
    assert re.fullmatch(expected, out), out


def test_stateful_metrics_are_shown_as_given(piped, capsys):
    bar = Progbar(2, stateful_metrics=["loss"])
    bar.update(1, [("loss", 4.0)])
    bar.update(2, [("loss", 2.0)])
    assert capsys.readouterr().out.endswith(" - loss: 2.0000\n")


def test_piped_output_prints_only_the_final_line(piped, capsys):
    bar = Progbar(3, interval=0)
    for step in (1, 2):
        bar.update(step, [("loss", 0.5)])
    assert capsys.readouterr().out == ""
    bar.update(3, [("loss", 0.5)])
    assert capsys.readouterr().out.count("\n") == 1


def test_interactive_output_redraws_in_place(interactive, capsys):
    bar = Progbar(3, interval=0)
    for step in (1, 2, 3):
        bar.update(step, [("loss", 0.5)])
    out = capsys.readouterr().out
    lines = out.split("\r")[1:]
    assert len(lines) == 3 and out.count("\n") == 1 and out.endswith("\n")
    assert lines[0].startswith(f"1/3 {_bar(1, 3)} - ETA: ")
    assert lines[1].startswith(f"2/3 {_bar(2, 3)} - ETA: ")
    assert re.fullmatch(rf"3/3 {re.escape(_bar(3, 3))} - \d+s {TIME}/step - loss: 0\.5000\s*\n", lines[2])


def test_interval_throttles_redraws_but_not_the_final_one(interactive, capsys):
    bar = Progbar(3, interval=3600)
    bar.update(1)
    bar.update(2)
    bar.update(3)
    assert capsys.readouterr().out.count("\r") == 2  # the first update, then the final one


def test_verbose_2_prints_one_line_at_the_end(interactive, capsys):
    bar = Progbar(3, verbose=2)
    bar.update(2, [("loss", 1e-5)])
    assert capsys.readouterr().out == ""
    bar.update(3, [("loss", 1e-5)])
    out = capsys.readouterr().out
    assert re.fullmatch(rf"3/3 - \d+s - {TIME}/step - loss: 1\.0000e-05\n", out), out


def test_verbose_2_writes_negative_values_in_exponent_form(interactive, capsys):
    # Keras 3.15's verbose=2 line tests `avg > 1e-3` (verbose=1 tests abs): -0.5 is "-5.0000e-01"
    bar = Progbar(1, verbose=2)
    bar.update(1, [("loss", -0.5), ("acc", 0.25)])
    out = capsys.readouterr().out
    assert re.fullmatch(rf"1/1 - \d+s - {TIME}/step - loss: -5\.0000e-01 - acc: 0\.2500\n", out), out


def test_verbose_2_prints_nothing_for_an_unknown_target(interactive, capsys):
    bar = Progbar(None, verbose=2)
    bar.update(4, [("loss", 1.0)], finalize=True)
    assert capsys.readouterr().out == ""


def test_verbose_0_is_silent(interactive, capsys):
    Progbar(1, verbose=0).update(1, [("loss", 1.0)])
    assert capsys.readouterr().out == ""


def test_unknown_target_shows_the_count(interactive, capsys):
    Progbar(None, interval=0).update(5)
    assert capsys.readouterr().out.startswith("\r      5/Unknown - ")


def test_interactivity_follows_the_current_stdout(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert not _progbar._is_interactive()
    monkeypatch.setattr("sys.stdout", Terminal())
    assert _progbar._is_interactive()


def test_pack_and_unpack_x_y_sample_weight_as_keras3():
    utils = tf.keras.utils
    assert utils.pack_x_y_sample_weight(1) == 1 and utils.pack_x_y_sample_weight([1, 2]) == ([1, 2],)
    assert utils.pack_x_y_sample_weight(1, 2) == (1, 2) and utils.pack_x_y_sample_weight(1, 2, 3) == (1, 2, 3)
    assert utils.pack_x_y_sample_weight(1, None, 3) == 1  # Keras drops a weight without labels
    for data, expected in [(5, (5, None, None)), ((1,), (1, None, None)), ([1, 2], (1, 2, None)),
                           ((1, 2, 3), (1, 2, 3))]:
        assert utils.unpack_x_y_sample_weight(data) == expected
        assert utils.unpack_x_y_sample_weight(utils.pack_x_y_sample_weight(*expected)) == expected
    with pytest.raises(ValueError, match="Received a tuple of 4"):
        utils.unpack_x_y_sample_weight((1, 2, 3, 4))


def test_the_custom_object_registry_is_reachable_from_utils():
    assert tf.keras.utils.register_keras_serializable is tf.keras.saving.register_keras_serializable
    assert tf.keras.utils.get_custom_objects is tf.keras.saving.get_custom_objects
    assert tf.keras.utils.clear_session is tf.keras.backend.clear_session

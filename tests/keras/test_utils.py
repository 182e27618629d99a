"""keras.utils: to_categorical against NumPy eye indexing, Progbar's text, set_random_seed."""

import io
import itertools
import os
import random
import types

import numpy as np
import pytest

import companion as tf
from companion.keras.utils import Progbar, _progbar


# -- to_categorical -------------------------------------------------------------------------
@pytest.mark.parametrize("labels, shape", [
    ([0, 3, 1, 2], (4,)), ([[0], [2], [1]], (3, 1)), ([[0, 1], [2, 2], [1, 0]], (3, 2)),
])
def test_to_categorical_is_eye_indexing(labels, shape):
    y = np.array(labels).reshape(shape)
    got = tf.keras.utils.to_categorical(y, num_classes=4)
    squeezed = y[..., 0] if shape[-1] == 1 and len(shape) > 1 else y
    np.testing.assert_array_equal(got, np.eye(4)[squeezed])
    assert type(got) is np.ndarray and got.dtype == np.float64  # Keras 3: NumPy in, float64 NumPy out


def test_to_categorical_of_a_tensor_is_a_float32_tensor_and_dtype_overrides():
    got = tf.keras.utils.to_categorical(tf.constant([[2], [0]]), 3)  # Keras 3: one_hot of the tensor
    assert tf.is_tensor(got) and got.dtype == tf.float32 and got.shape == (2, 3)
    np.testing.assert_array_equal(got.numpy(), np.eye(3)[[2, 0]])
    got = tf.keras.utils.to_categorical(tf.constant([2, 0]), dtype="int64")  # inferred classes, own dtype
    np.testing.assert_array_equal(got.numpy(), np.eye(3, dtype=np.int64)[[2, 0]])
    assert got.dtype == tf.int64


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
# Oracle: Keras 3.15's Progbar run with the same calls and the same fake clock (each reading 0.25 s
# after the one before, far from 0), its output written out byte for byte: bold count and time,
# green done part, grey rest, each redraw erasing the previous one with backspaces and "\r".
BS = "\b"


@pytest.fixture
def clock(monkeypatch):
    readings = itertools.count(1000, 0.25)  # far from 0: the first update is always drawn
    monkeypatch.setattr(_progbar, "time", types.SimpleNamespace(time=lambda: float(next(readings))))


def _styled(count, done, rest):
    green = f"\x1b[32m{'━' * done}\x1b[0m" if done else ""
    return f"\x1b[1m{count}\x1b[0m {green}\x1b[37m{'━' * rest}\x1b[0m"


def test_values_are_averaged_until_the_final_update_which_shows_its_own(clock, capsys):
    bar = Progbar(4)
    bar.add(3, [("loss", 1.0), ("acc", 0.5)])
    bar.add(1, [("loss", 3.0), ("acc", 0.5)])
    assert capsys.readouterr().out == (
        f"\r{_styled('3/4', 15, 5)} \x1b[1m0s\x1b[0m 83ms/step - loss: 1.0000 - acc: 0.5000" + BS * 66
        + f"\r{_styled('4/4', 20, 0)} \x1b[1m0s\x1b[0m 125ms/step - loss: 3.0000 - acc: 0.5000\n")


def test_stateful_metrics_are_shown_as_given_and_a_forced_final_update_ends_the_line(clock, capsys):
    bar = Progbar(4, stateful_metrics=["loss"], interval=0)
    bar.update(1, [("loss", 1.0), ("acc", 0.5)])
    bar.update(2, [("loss", 2.0), ("acc", 0.7)])
    bar.update(3, [("loss", 1.0), ("acc", 0.7)], finalize=True)
    assert capsys.readouterr().out == (
        f"\r{_styled('1/4', 5, 15)} \x1b[1m0s\x1b[0m 250ms/step - loss: 1.0000 - acc: 0.5000" + BS * 67
        + f"\r{_styled('2/4', 10, 10)} \x1b[1m0s\x1b[0m 250ms/step - loss: 2.0000 - acc: 0.6000" + BS * 67
        + f"\r{_styled('3/4', 15, 5)} \x1b[1m1s\x1b[0m 250ms/step - loss: 1.0000 - acc: 0.7000\n")


def test_stateless_metrics_average_only_the_names_given(clock, capsys):
    bar = Progbar(3, stateless_metrics=["a"], interval=0)
    bar.update(1, [("a", 1.0), ("b", 1.0)])
    bar.update(3, [("a", 3.0), ("b", 3.0)], finalize=False)
    assert capsys.readouterr().out == (
        f"\r{_styled('1/3', 6, 14)} \x1b[1m0s\x1b[0m 250ms/step - a: 1.0000 - b: 1.0000" + BS * 62
        + f"\r{_styled('3/3', 20, 0)} \x1b[1m0s\x1b[0m 125ms/step - a: 2.3333 - b: 3.0000")


def test_unknown_target_shows_the_count_and_pads_over_a_longer_line(clock, capsys):
    bar = Progbar(None, interval=0)
    bar.update(5, [("loss", 1e-5)])
    bar.update(7, [("loss", -0.5)], finalize=True)
    assert capsys.readouterr().out == (
        "\r      5/Unknown \x1b[1m0s\x1b[0m 50ms/step - loss: 1.0000e-05" + BS * 47
        + "\r      7/Unknown \x1b[1m0s\x1b[0m 71ms/step - loss: -0.5000   \n")


def test_eta_counts_and_padding_follow_the_target_width(clock, capsys):
    bar = Progbar(1000, interval=0)
    bar.update(1, [("x", 2000.0)])
    bar.update(999, [("x", 1.0)])
    assert capsys.readouterr().out == (
        f"\r{_styled('   1/1000', 0, 20)} \x1b[1m4:09\x1b[0m 250ms/step - x: 2000.0000" + BS * 61
        + f"\r{_styled(' 999/1000', 19, 1)} \x1b[1m0s\x1b[0m 251us/step - x: 3.0010     ")


def test_interval_throttles_redraws_but_not_the_final_one(clock, capsys):
    bar = Progbar(12, width=5, unit_name="sample", interval=1)
    bar.update(6, [("loss", 0.5)])
    bar.update(8, [("loss", 0.5)])  # 0.25 s later: not drawn
    bar.update(12, [("loss", 0.5)])
    assert capsys.readouterr().out == (
        f"\r{_styled(' 6/12', 2, 3)} \x1b[1m0s\x1b[0m 42ms/sample - loss: 0.5000" + BS * 41
        + f"\r{_styled('12/12', 5, 0)} \x1b[1m1s\x1b[0m 62ms/sample - loss: 0.5000\n")


def test_verbose_2_prints_one_line_at_the_end(clock, capsys):
    # Keras 3.15's verbose=2 line tests `avg > 1e-3` (verbose=1 tests abs): -0.5 is "-5.0000e-01"
    bar = Progbar(120, verbose=2)
    bar.update(60, [("loss", -0.5)])
    assert capsys.readouterr().out == ""
    bar.update(120, [("loss", -0.5)])
    assert capsys.readouterr().out == "120/120 - 0s - 4ms/step - loss: -5.0000e-01\n"


def test_verbose_2_prints_nothing_for_an_unknown_target(capsys):
    bar = Progbar(None, verbose=2)
    bar.update(4, [("loss", 1.0)], finalize=True)
    assert capsys.readouterr().out == ""


def test_verbose_0_is_silent(capsys):
    Progbar(1, verbose=0).update(1, [("loss", 1.0)])
    assert capsys.readouterr().out == ""


def test_stateful_and_stateless_metrics_exclude_each_other():
    with pytest.raises(ValueError, match="Only one of `stateful_metrics` or `stateless_metrics`"):
        Progbar(3, stateful_metrics=["a"], stateless_metrics=["b"])


def test_redraws_in_place_on_posix_even_into_a_pipe(monkeypatch):
    # Keras 3 tests `"posix" in sys.modules`: a pipe on Linux gets the terminal's redraws
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert _progbar._is_interactive() is (os.name == "posix")


def test_without_redraws_each_drawing_starts_a_new_line(monkeypatch, clock, capsys):
    monkeypatch.setattr(_progbar, "_is_interactive", lambda: False)
    bar = Progbar(2, interval=0)
    bar.update(1)
    bar.update(2)
    out = capsys.readouterr().out
    assert out == (f"\n{_styled('1/2', 10, 10)} \x1b[1m0s\x1b[0m 250ms/step"
                   f"\n{_styled('2/2', 20, 0)} \x1b[1m0s\x1b[0m 250ms/step\n")


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

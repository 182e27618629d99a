"""Weights files (``save_weights`` / ``load_weights``): round trips, deferred loading, mismatches."""

import os

import numpy as np
import pytest

import companion as tf
from companion.keras import _weights_file
from companion.train import _deferred
from tests.train.nets import Net, train_step, values

X = np.zeros((1, 3), np.float32)


@pytest.fixture(autouse=True)
def no_pending_restorations():
    _deferred.pending.clear()
    yield
    _deferred.pending.clear()


def _built(hidden=4):
    net = Net(hidden=hidden)
    net(X)
    return net


@pytest.mark.parametrize("given,written", [("w", "w.npz"), ("w.npz", "w.npz"),
                                           ("m.weights.h5", "m.weights.h5")])  # Keras 3's name, kept
def test_round_trip_and_file_name_rule(tmp_path, given, written):
    saved = _built()
    assert _weights_file.save_weights(saved, str(tmp_path / given)) == str(tmp_path / written)
    assert os.listdir(tmp_path) == [written]
    loaded = _built()
    _weights_file.load_weights(loaded, str(tmp_path / given)).assert_consumed()
    for got, want in zip(values(loaded.weights), values(saved.weights)):
        np.testing.assert_array_equal(got, want)


def test_a_h5_name_saved_by_an_earlier_version_with_npz_appended_still_loads(tmp_path):
    saved = _built()
    _weights_file.save_weights(saved, str(tmp_path / "m.weights.h5"))
    os.rename(tmp_path / "m.weights.h5", tmp_path / "m.weights.h5.npz")
    loaded = _built()
    _weights_file.load_weights(loaded, str(tmp_path / "m.weights.h5")).assert_consumed()
    for got, want in zip(values(loaded.weights), values(saved.weights)):
        np.testing.assert_array_equal(got, want)


def test_unbuilt_model_receives_the_weights_when_built(tmp_path):
    saved = _built()
    path = _weights_file.save_weights(saved, str(tmp_path / "w"))
    loaded = Net()
    status = _weights_file.load_weights(loaded, path)
    loaded(X)
    status.assert_consumed()
    for got, want in zip(values(loaded.weights), values(saved.weights)):
        np.testing.assert_array_equal(got, want)


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"nothing\.npz"):
        _weights_file.load_weights(_built(), str(tmp_path / "nothing"))


class Deeper(Net):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.extra = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.extra(super().call(inputs))


def test_structure_mismatch_names_missing_and_extra_weights(tmp_path):
    small, deep = _built(), Deeper()
    deep(X)
    small_path = _weights_file.save_weights(small, str(tmp_path / "small"))
    deep_path = _weights_file.save_weights(deep, str(tmp_path / "deep"))
    with pytest.raises(ValueError, match=r"no saved value: \['extra/kernel', 'extra/bias'\]"):
        _load_built(Deeper, small_path)
    with pytest.raises(ValueError, match=r"no counterpart: \['extra/kernel', 'extra/bias'\]"):
        _weights_file.load_weights(_built(), deep_path)
    target = _built()
    with pytest.warns(UserWarning, match="skip_mismatch"):
        _weights_file.load_weights(target, deep_path, skip_mismatch=True)
    np.testing.assert_array_equal(target.out.kernel.numpy(), deep.out.kernel.numpy())


def _load_built(cls, path):
    model = cls()
    model(X)
    return _weights_file.load_weights(model, path)


def test_shape_mismatch_raises_or_is_skipped(tmp_path):
    saved = _built(hidden=4)
    path = _weights_file.save_weights(saved, str(tmp_path / "w"))
    with pytest.raises(ValueError, match=r"'hidden/kernel'.*\(3, 5\).*\(3, 4\)"):
        _weights_file.load_weights(_built(hidden=5), path)
    target = _built(hidden=5)
    before = target.hidden.kernel.numpy().copy()
    with pytest.warns(UserWarning, match="Skipped"):
        _weights_file.load_weights(target, path, skip_mismatch=True)
    np.testing.assert_array_equal(target.hidden.kernel.numpy(), before)
    np.testing.assert_array_equal(target.out.bias.numpy(), saved.out.bias.numpy())


def test_overwrite_false_refuses_an_existing_file(tmp_path):
    path = _weights_file.save_weights(_built(), str(tmp_path / "w"))
    with pytest.raises(FileExistsError, match="overwrite"):
        _weights_file.save_weights(_built(), path, overwrite=False)


def test_optimizer_set_after_loading_is_restored_on_the_first_step(tmp_path):
    net = _built()
    net.optimizer = tf.keras.optimizers.Adam(0.1)
    for _ in range(2):
        train_step(net, net.optimizer)
    path = _weights_file.save_weights(net, str(tmp_path / "w"))
    train_step(net, net.optimizer)
    fresh = _built()
    _weights_file.load_weights(fresh, path)  # no optimizer yet: its state waits, not an error
    fresh.optimizer = tf.keras.optimizers.Adam(0.1)  # restored with its slots on the first step
    train_step(fresh, fresh.optimizer)
    for got, want in zip(values(fresh.weights + fresh.optimizer.variables),
                         values(net.weights + net.optimizer.variables)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)

"""keras.callbacks.BackupAndRestore: an interrupted fit resumes and ends like an uninterrupted one.

The oracle is the same fit run without interruption: after the failure, a fresh model
(built the same way) fitted again with the callback must end with the same weights and
optimizer state, having trained only the epochs (or batches) that were left.
"""

import json
import os

import numpy as np
import pytest

import companion as tf
from companion.keras.callbacks._backup_and_restore import BACKUP_NAME
from companion.train import _checkpoint_file

EPOCHS = 5
KERAS_FILES = ["latest.weights.h5", "training_metadata.json"]  # what Keras 3.15 lists in backup_dir
X = np.random.default_rng(0).normal(size=(90, 6)).astype("float32")
Y = (X[:, 0] + X[:, 1] > 0).astype("int64") + (X[:, 2] > 0.5)


class Interrupt(tf.keras.callbacks.Callback):
    """Raises after batch ``batch`` of epoch ``epoch`` (0-based), like a crash mid-training."""

    def __init__(self, epoch, batch):
        super().__init__()
        self.epoch, self.batch, self.current = epoch, batch, None

    def on_epoch_begin(self, epoch, logs=None):
        self.current = epoch

    def on_train_batch_end(self, batch, logs=None):
        if (self.current, batch) == (self.epoch, self.batch):
            raise RuntimeError("interrupted")


def build(input_layer=True, run_eagerly=True):
    """The same model every time (eager steps by default: the tests then compile little)."""
    tf.random.set_seed(7)
    layers = [tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(3)]
    model = tf.keras.Sequential(([tf.keras.Input(shape=(6,))] if input_layer else []) + layers)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    model.compile(tf.keras.optimizers.Adam(0.02), loss, metrics=["accuracy"], run_eagerly=run_eagerly)
    return model


_UNINTERRUPTED = {}


def uninterrupted_state(data, **build_kwargs):
    """The oracle: the state after the same fit without interruption (computed once per setting)."""
    key = (data.__name__, tuple(sorted(build_kwargs.items())))
    if key not in _UNINTERRUPTED:
        model = build(**build_kwargs)
        fit(model, data)
        _UNINTERRUPTED[key] = state(model)
    return _UNINTERRUPTED[key]


def array_data():
    return {"x": X, "y": Y, "batch_size": 16}


def dataset_data():
    return {"x": tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(90).batch(16)}


def state(model):
    return [np.asarray(w) for w in model.get_weights()] + [int(model.optimizer.iterations.numpy())]


def assert_same_state(got, want):
    assert got[-1] == want[-1]  # optimizer steps
    for a, b in zip(got[:-1], want[:-1]):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)


def fit(model, data, callbacks=(), **kwargs):
    return model.fit(**data(), epochs=EPOCHS, verbose=0, callbacks=list(callbacks), **kwargs)


@pytest.mark.parametrize("data", [array_data, dataset_data], ids=["arrays", "dataset"])
@pytest.mark.parametrize("save_freq, stop, resumed_epochs, run_eagerly", [
    pytest.param("epoch", (3, 2), [3, 4], False,  # backed up after epoch 2 (0-based); epoch 3 is done again
                 marks=pytest.mark.slow),  # compiled steps, as fit runs by default
    (4, (2, 4), [2, 3, 4], True),      # backed up after batch 3 of epoch 2; resumes at its batch 4
    (3, (1, 5), [2, 3, 4], True),      # backed up after epoch 1's last batch (6 per epoch): next epoch
])
def test_an_interrupted_fit_resumes_with_the_weights_of_an_uninterrupted_one(tmp_path, data, save_freq, stop,
                                                                          resumed_epochs, run_eagerly):
    backup_dir = tmp_path / "backup"
    interrupted = build(run_eagerly=run_eagerly)
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(interrupted, data, [tf.keras.callbacks.BackupAndRestore(backup_dir, save_freq=save_freq),
                                Interrupt(*stop)])
    assert sorted(os.listdir(backup_dir)) == KERAS_FILES  # an exception keeps the backup
    resumed = build(run_eagerly=run_eagerly)  # a new process would build the model again, the same way
    history = fit(resumed, data, [tf.keras.callbacks.BackupAndRestore(backup_dir, save_freq=save_freq)])
    assert history.epoch == resumed_epochs
    assert_same_state(state(resumed), uninterrupted_state(data, run_eagerly=run_eagerly))
    assert not backup_dir.exists()  # deleted once fit finished


def test_an_unbuilt_model_gets_its_values_when_built(tmp_path):
    interrupted = build(input_layer=False)
    callback = tf.keras.callbacks.BackupAndRestore(tmp_path)
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(interrupted, array_data, [callback, Interrupt(2, 0)])
    resumed = build(input_layer=False)
    assert not resumed.built
    fit(resumed, array_data, [callback])
    assert_same_state(state(resumed), uninterrupted_state(array_data, input_layer=False))


def test_the_backup_holds_model_optimizer_and_position(tmp_path):
    model = build()
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(model, array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path), Interrupt(2, 0)])
    with np.load(tmp_path / BACKUP_NAME) as data:
        manifest = json.loads(str(data["__manifest__"]))
    paths = {entry["path"] for entry in manifest["variables"]}
    assert {"optimizer/iter", "_stack/0/kernel"} <= paths
    assert any(".OPTIMIZER_SLOT" in path for path in paths)
    assert manifest["training_state"] == {"epoch": 2, "batch": 0}  # epochs 0 and 1 done
    values, _ = _checkpoint_file.read(str(tmp_path / BACKUP_NAME))
    assert int(values["optimizer/iter"]) == 2 * 6  # two epochs of 6 batches
    # Keras 3.15 writes {"epoch": 2, "batch": 0} after epochs 0 and 1
    assert json.loads((tmp_path / "training_metadata.json").read_text()) == {"epoch": 2, "batch": 0}


def test_mid_epoch_metadata_names_the_last_batch_done(tmp_path):
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path, save_freq=4),
                                  Interrupt(2, 5)])
    _, manifest = _checkpoint_file.read(str(tmp_path / BACKUP_NAME))
    assert manifest["training_state"] == {"epoch": 2, "batch": 4}  # backed up after batches 0..3 of epoch 2
    assert json.loads((tmp_path / "training_metadata.json").read_text()) == {"epoch": 2, "batch": 3}


def test_a_backup_an_earlier_version_wrote_is_restored_and_deleted(tmp_path):
    # earlier versions wrote the same archive as {backup_dir}/backup.npz and no metadata
    backup_dir = tmp_path / "b"
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(backup_dir), Interrupt(2, 0)])
    os.rename(backup_dir / BACKUP_NAME, backup_dir / "backup.npz")
    os.remove(backup_dir / "training_metadata.json")
    resumed = build()
    history = fit(resumed, array_data, [tf.keras.callbacks.BackupAndRestore(backup_dir)])
    assert history.epoch == [2, 3, 4]
    assert_same_state(state(resumed), uninterrupted_state(array_data))
    assert not backup_dir.exists()  # the old backup was replaced, then deleted with the new one


def test_delete_checkpoint(tmp_path):
    fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path / "a")])
    assert not (tmp_path / "a").exists()
    fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path / "b", delete_checkpoint=False)])
    assert sorted(os.listdir(tmp_path / "b")) == KERAS_FILES
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "notes.txt").write_text("not ours")
    fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path / "c")])
    assert os.listdir(tmp_path / "c") == ["notes.txt"]  # only the backup itself is deleted


def test_a_finished_backup_trains_no_more_epochs(tmp_path):
    model = build()
    fit(model, array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path, delete_checkpoint=False)])
    again = build()
    history = fit(again, array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path)])
    assert history.epoch == []
    assert_same_state(state(again), state(model))


def test_the_backup_wins_over_initial_epoch(tmp_path):
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path), Interrupt(3, 0)])
    history = fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path)], initial_epoch=1)
    assert history.epoch == [3, 4]


def test_only_the_chief_writes_but_every_worker_restores(tmp_path, monkeypatch):
    cluster = {"worker": ["localhost:1", "localhost:2"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 1}}))
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path / "w"), Interrupt(2, 0)])
    assert not (tmp_path / "w").exists()  # a non-chief worker writes nothing
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 0}}))
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path / "w"), Interrupt(2, 0)])
    assert sorted(os.listdir(tmp_path / "w")) == KERAS_FILES
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 1}}))
    history = fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path / "w")])
    assert history.epoch == [2, 3, 4]  # resumed from the chief's backup
    assert sorted(os.listdir(tmp_path / "w")) == KERAS_FILES  # deleting it is the chief's job


@pytest.mark.parametrize("kwargs, error, message", [
    ({"backup_dir": ""}, ValueError, "Empty `backup_dir` argument passed"),
    ({"backup_dir": None}, ValueError, r"Received: backup_dir=None"),
    ({"backup_dir": 3}, TypeError, r"a directory path .* Received: backup_dir=3 of type int"),
    ({"backup_dir": "b", "save_freq": "batch"}, ValueError, r"save_freq='batch'"),
    ({"backup_dir": "b", "save_freq": 0}, ValueError, r"positive integer .* save_freq=0"),
    ({"backup_dir": "b", "save_freq": True}, ValueError, r"save_freq=True"),
    ({"backup_dir": "b", "save_freq": False}, ValueError, r"save_freq=False"),
    ({"backup_dir": "b", "delete_checkpoint": "yes"}, TypeError, r"delete_checkpoint='yes'"),
    ({"backup_dir": "b", "save_before_preemption": True}, ValueError, r"preemption notices"),
])
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        tf.keras.callbacks.BackupAndRestore(**kwargs)


def test_a_file_as_backup_dir(tmp_path):
    (tmp_path / "taken").write_text("")
    with pytest.raises(NotADirectoryError, match="is a file"):
        fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path / "taken")])


def test_a_backup_of_another_model_is_refused(tmp_path):
    with pytest.raises(RuntimeError, match="interrupted"):
        fit(build(), array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path), Interrupt(1, 0)])
    other = tf.keras.Sequential([tf.keras.Input(shape=(6,)), tf.keras.layers.Dense(8),
                                 tf.keras.layers.Dense(3)])
    other.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    with pytest.raises(ValueError, match="Cannot restore the checkpoint value '_stack/0/kernel'"):
        fit(other, array_data, [tf.keras.callbacks.BackupAndRestore(tmp_path)])

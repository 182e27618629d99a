"""keras.callbacks.ModelCheckpoint: file names, save_best_only, save_freq and the chief rule."""

import json
import os

import pytest

from companion.keras import callbacks as cb
from companion.keras.callbacks import _chief
from tests.keras.callback_checks import FakeModel, fit, val_losses


def saved_names(model):
    return [os.path.basename(path) for path in model.saved]


@pytest.mark.parametrize("best_only, want", [
    (False, ["w-01-0.50.weights.h5", "w-02-0.40.weights.h5", "w-03-0.60.weights.h5"]),
    (True, ["w-01-0.50.weights.h5", "w-02-0.40.weights.h5"]),  # 0.60 does not beat 0.40
])
def test_model_checkpoint_fills_the_file_name_and_saves_the_best(tmp_path, best_only, want):
    model = FakeModel()
    checkpoint = cb.ModelCheckpoint(str(tmp_path / "w-{epoch:02d}-{val_loss:.2f}.weights.h5"),
                                    save_best_only=best_only, save_weights_only=True)
    fit([checkpoint], val_losses(0.5, 0.4, 0.6), model=model)
    assert saved_names(model) == want
    assert sorted(os.listdir(tmp_path)) == want


def test_model_checkpoint_max_mode_for_accuracy_and_batch_frequency(tmp_path):
    model = FakeModel()
    best = cb.ModelCheckpoint(str(tmp_path / "best-{epoch}.weights.h5"), monitor="val_acc",
                              save_best_only=True, mode="max",
                              save_weights_only=True)
    fit([best], [{"val_acc": v} for v in (0.5, 0.4, 0.7)], model=model)
    assert saved_names(model) == ["best-1.weights.h5", "best-3.weights.h5"]
    # save_freq=2 over 2 epochs of 3 batches: after batches 2 and 4 and 6 overall (1-based).
    model = FakeModel()
    every_two = cb.ModelCheckpoint(str(tmp_path / "b-{epoch}-{batch}.weights.h5"), save_freq=2,
                                   save_weights_only=True)
    fit([every_two], [{"loss": 1.0}] * 2, model=model, batch_logs=[{"loss": 1.0}] * 3)
    assert saved_names(model) == ["b-1-2.weights.h5", "b-2-1.weights.h5", "b-2-3.weights.h5"]


def test_model_checkpoint_saves_the_whole_model_unless_weights_only(tmp_path):
    class Savable(FakeModel):
        def save(self, path):
            self.saved.append(("save", path))

    model = Savable()
    fit([cb.ModelCheckpoint(str(tmp_path / "m.keras"))], [{"loss": 1.0}], model=model)
    assert model.saved == [("save", str(tmp_path / "m.keras"))]
    with pytest.raises(TypeError, match="save_weights_only=True"):
        fit([cb.ModelCheckpoint(str(tmp_path / "m.keras"))], [{"loss": 1.0}])


def test_model_checkpoint_argument_errors(tmp_path):
    with pytest.raises(ValueError, match="save_freq='batch'"):
        cb.ModelCheckpoint("x.keras", save_freq="batch")
    with pytest.warns(UserWarning, match="^ModelCheckpoint mode 'best' is unknown, fallback to auto mode.$"):
        assert cb.ModelCheckpoint("x.keras", mode="best").mode == "auto"  # Keras 3.15: falls back
    with pytest.raises(KeyError, match="val_auc"):
        fit([cb.ModelCheckpoint(str(tmp_path / "{val_auc}.weights.h5"), save_weights_only=True)],
            [{"loss": 1.0}])
    # Keras 3.15's file-name rules (TF 2.21's messages)
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5` \(Keras weights format\)\. "
                                         r"Received: filepath=m\.h5"):
        cb.ModelCheckpoint("m.h5", save_weights_only=True)
    with pytest.raises(ValueError, match=r"must end in `\.keras` \(Keras model format\)\. Received: "
                                         r"filepath=m\.ckpt"):
        cb.ModelCheckpoint("m.ckpt")


def set_tf_config(monkeypatch, cluster, task_type, index):
    config = {"cluster": cluster, "task": {"type": task_type, "index": index}}
    monkeypatch.setenv("TF_CONFIG", json.dumps(config))


WORKERS = {"worker": ["host0:2222", "host1:2222"]}


@pytest.mark.parametrize("cluster, task_type, index, chief", [
    (WORKERS, "worker", 0, True), (WORKERS, "worker", 1, False),
    ({**WORKERS, "chief": ["host2:2222"]}, "chief", 0, True),
    ({**WORKERS, "chief": ["host2:2222"]}, "worker", 0, False),
    ({**WORKERS, "evaluator": ["host3:2222"]}, "evaluator", 0, False),
])
def test_is_chief_follows_tensorflows_rule(monkeypatch, cluster, task_type, index, chief):
    set_tf_config(monkeypatch, cluster, task_type, index)
    assert _chief._is_chief() is chief


def test_is_chief_without_tf_config(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert _chief._is_chief()
    monkeypatch.setenv("TF_CONFIG", "{not json")
    with pytest.raises(ValueError, match="TF_CONFIG"):
        _chief._is_chief()


def test_non_chief_checkpoint_writes_a_temporary_copy_and_removes_it(tmp_path, monkeypatch):
    set_tf_config(monkeypatch, WORKERS, "worker", 1)
    model = FakeModel()
    fit([cb.ModelCheckpoint(str(tmp_path / "w.weights.h5"), save_weights_only=True)], [{"loss": 1.0}],
        model=model)
    assert model.saved == [str(tmp_path / "workertemp_1" / "w.weights.h5")]
    assert os.listdir(tmp_path) == []


def test_model_checkpoint_verbose_messages_as_keras3(tmp_path, capsys):
    # TF 2.21: the first best is None, and each save is followed by "finished saving model"
    path = str(tmp_path / "w.weights.h5")
    checkpoint = cb.ModelCheckpoint(path, save_best_only=True, save_weights_only=True, verbose=1)
    assert checkpoint.best is None
    fit([checkpoint], val_losses(0.5, 0.6))
    assert capsys.readouterr().out == (
        f"\nEpoch 1: val_loss improved from None to 0.50000, saving model to {path}\n"
        f"\nEpoch 1: finished saving model to {path}\n"
        "\nEpoch 2: val_loss did not improve from 0.50000\n")

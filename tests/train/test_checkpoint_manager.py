"""CheckpointManager and latest_checkpoint: numbering, deletion, state on disk, chief-only writing."""

import json
import os
import shutil
import time

import pytest

import companion as tf

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "checkpoint_npz")


def tf_listing(*numbers):
    """What TF 2.21 lists in a directory holding the checkpoints ``ckpt-N`` (observed)."""
    suffixes = (".data-00000-of-00001", ".index")
    return ["checkpoint"] + [f"ckpt-{n}{suffix}" for n in numbers for suffix in suffixes]


def test_manager_keeps_the_newest_and_deletes_the_rest(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(0.0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None and tf.train.latest_checkpoint(str(tmp_path)) is None
    ckpt.restore(manager.latest_checkpoint).expect_partial()
    for i in range(4):
        ckpt.v.assign(float(i))
        last = manager.save()
    assert sorted(os.listdir(tmp_path)) == tf_listing(3, 4)
    assert manager.checkpoints == [str(tmp_path / "ckpt-3"), str(tmp_path / "ckpt-4")]
    assert manager.latest_checkpoint == last == tf.train.latest_checkpoint(str(tmp_path))
    assert float(tf.train.load_variable(last, "v")) == 3.0
    assert manager.save(checkpoint_number=100).endswith("ckpt-100")


def test_manager_created_again_carries_on_from_disk(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3)
    for _ in range(3):
        manager.save()
    ckpt = tf.train.Checkpoint(v=tf.Variable(0.0))
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3)
    assert again.checkpoints == manager.checkpoints
    ckpt.restore(again.latest_checkpoint).assert_consumed()
    assert float(ckpt.v.numpy()) == 1.0 and int(ckpt.save_counter.numpy()) == 3
    assert again.save().endswith("ckpt-4")
    assert sorted(os.listdir(tmp_path)) == tf_listing(2, 3, 4)


def test_a_directory_an_earlier_version_wrote_carries_on(tmp_path):
    # tests/fixtures/checkpoint_npz: two saves of a CheckpointManager of companion aa7e5d0, which
    # wrote each checkpoint as one file ckpt-N.npz
    shutil.copytree(FIXTURE, tmp_path, dirs_exist_ok=True)
    ckpt = tf.train.Checkpoint(w=tf.Variable([0.0, 0.0]), half=tf.Variable([0.0], dtype=tf.bfloat16),
                               step=tf.Variable(0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert manager.checkpoints == [str(tmp_path / "ckpt-1"), str(tmp_path / "ckpt-2")]
    assert tf.train.latest_checkpoint(str(tmp_path)) == manager.latest_checkpoint
    ckpt.restore(manager.latest_checkpoint).assert_consumed()
    assert ckpt.w.numpy().tolist() == [3.0, 4.0] and int(ckpt.save_counter.numpy()) == 2
    assert manager.save().endswith("ckpt-3")  # retires ckpt-1: its .npz is deleted
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-2.npz", "ckpt-3.data-00000-of-00001",
                                            "ckpt-3.index"]


def test_keep_checkpoint_every_n_hours_preserves_old_ones(tmp_path, monkeypatch):
    clock = iter([0.0, 10.0, 4000.0, 8000.0])
    monkeypatch.setattr(time, "time", lambda: next(clock))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), str(tmp_path),
                                         max_to_keep=1, keep_checkpoint_every_n_hours=1)
    for _ in range(3):
        manager.save()
    assert sorted(os.listdir(tmp_path)) == tf_listing(2, 3)
    assert manager.checkpoints == [str(tmp_path / "ckpt-3")]


def _tf_config(monkeypatch, task_type, index, cluster):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": task_type,
                                                                              "index": index}}))


@pytest.mark.parametrize("task_type,index,cluster", [
    ("worker", 1, {"worker": ["a:1", "b:1"]}),
    ("worker", 0, {"chief": ["c:1"], "worker": ["a:1"]}),
])
def test_non_chief_leaves_the_directory_untouched(tmp_path, monkeypatch, task_type, index, cluster):
    directory = tmp_path / "ckpts"
    chief = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), str(directory))
    written = chief.save()
    _tf_config(monkeypatch, task_type, index, cluster)
    worker = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(2.0)), str(directory))
    worker.save()
    assert sorted(os.listdir(directory)) == tf_listing(1)
    assert sorted(os.listdir(tmp_path)) == ["ckpts"]  # the worker's temporary directory is gone
    assert worker.latest_checkpoint == written
    assert float(tf.train.load_variable(written, "v")) == 1.0


@pytest.mark.parametrize("task_type,index,cluster", [
    ("chief", 0, {"chief": ["c:1"], "worker": ["a:1"]}),
    ("worker", 0, {"worker": ["a:1", "b:1"]}),
])
def test_chief_writes(tmp_path, monkeypatch, task_type, index, cluster):
    _tf_config(monkeypatch, task_type, index, cluster)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), str(tmp_path))
    assert os.path.exists(manager.save() + ".index")  # TF's idiom

"""Fault tolerance: a worker SIGKILLed mid-training, ``--restarts`` and BackupAndRestore resume the run.

Real processes: ``companion-launch --workers 2 --restarts 1`` runs a MultiWorkerMirroredStrategy
``fit`` with ``BackupAndRestore``; while epoch 3 trains, the test sends SIGKILL to one worker. The
launcher stops the other, starts both again, and training resumes after epoch 2 (the last
backup). The oracle is the same launch without a failure: the final weights must match.
"""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name != "posix", reason="sends POSIX signals")]

EPOCHS = 5
SCRIPT = """
import json, os, sys, time
import numpy as np
import companion as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
task_id = strategy.cluster_resolver.task_id
victim = int(sys.argv[1]) if len(sys.argv) > 1 else None
tf.random.set_seed(3)
x = np.random.default_rng(0).normal(size=(200, 8)).astype("float32")
y = (x[:, :3].sum(axis=1) > 0).astype("int64")
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.compile(tf.keras.optimizers.Adam(0.01),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))


class Log(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print(f"epoch {epoch + 1}/{self.params['epochs']} loss {logs['loss']:.5f}", flush=True)


class WaitToBeKilled(tf.keras.callbacks.Callback):
    # the victim stops after batch 5 of epoch 3 (the other worker goes on into the next
    # batch's all-reduce and waits there) and tells the test its pid, once
    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if (self.epoch, batch, task_id) == (2, 5, victim) and not os.path.exists("victim.pid"):
            with open("victim.pid.tmp", "w") as f:
                f.write(str(os.getpid()))
            os.replace("victim.pid.tmp", "victim.pid")
            time.sleep(120)


model.fit(x, y, batch_size=16, epochs=EPOCHS, verbose=0,
          callbacks=[tf.keras.callbacks.BackupAndRestore("backup"), Log(), WaitToBeKilled()])
if task_id == 0:
    np.save("weights.npy", np.concatenate([w.ravel() for w in model.get_weights()]))
""".replace("EPOCHS", str(EPOCHS))


def start_launcher(folder, *script_args):
    (folder / "train.py").write_text(SCRIPT)
    env = dict(os.environ)
    env.pop("XLA_FLAGS", None)
    env.pop("TF_CONFIG", None)
    return subprocess.Popen([sys.executable, "-m", "companion.distribute._launch", "--workers", "2",
                             "--restarts", "1", "train.py", *script_args], cwd=folder, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(launcher, timeout=300):
    out, _ = launcher.communicate(timeout=timeout)
    assert launcher.returncode == 0, out
    return out


def epoch_lines(lines, worker):
    """The ``epoch k/5`` parts of a worker's epoch lines."""
    prefix = f"[worker {worker}] "
    return [line[len(prefix):].split(" loss")[0] for line in lines if line.startswith(prefix + "epoch")]


def chief_losses(text):
    return [line.split("loss ")[1] for line in text.splitlines() if line.startswith("[worker 0] epoch")]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("uninterrupted")
    out = finish(start_launcher(folder))
    assert "[launch] restart" not in out
    return np.load(folder / "weights.npy"), out


@pytest.mark.parametrize("victim", [1, 0], ids=["worker-1", "chief"])
def test_a_killed_worker_rejoins_and_training_resumes_from_the_last_epoch(tmp_path, uninterrupted, victim):
    want_weights, want_out = uninterrupted
    launcher = start_launcher(tmp_path, str(victim))
    deadline = time.monotonic() + 240
    while not (tmp_path / "victim.pid").exists():
        assert launcher.poll() is None, launcher.communicate()[0]
        assert time.monotonic() < deadline, "the victim never reached epoch 3"
        time.sleep(0.05)
    os.kill(int((tmp_path / "victim.pid").read_text()), signal.SIGKILL)
    out = finish(launcher)

    before, restart, after = out.partition("[launch] restart 1 of 1: starting all 2 worker(s) again")
    assert restart, out
    assert f"[launch] worker {victim} was killed by signal SIGKILL" in before \
        or f"[launch] worker {1 - victim} exited with code 1" in before  # its peer's error may be seen first
    for worker in (0, 1):
        assert epoch_lines(before.splitlines(), worker) == ["epoch 1/5", "epoch 2/5"]
        assert epoch_lines(after.splitlines(), worker) == ["epoch 3/5", "epoch 4/5", "epoch 5/5"]
    assert out.rstrip().endswith("[launch] all 2 worker(s) finished after 1 restart(s)")
    assert chief_losses(after) == chief_losses(want_out)[2:]
    np.testing.assert_allclose(np.load(tmp_path / "weights.npy"), want_weights, rtol=0, atol=1e-6)
    assert not (tmp_path / "backup").exists()  # the chief deleted the backup after training
    assert sorted(os.listdir(tmp_path)) == ["train.py", "victim.pid", "weights.npy"]


def test_without_restarts_the_failure_ends_the_job(tmp_path):
    (tmp_path / "train.py").write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "TF_CONFIG")}
    launcher = subprocess.Popen([sys.executable, "-m", "companion.distribute._launch", "--workers", "2",
                                 "train.py", "1"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 240
    while not (tmp_path / "victim.pid").exists():
        assert launcher.poll() is None and time.monotonic() < deadline, launcher.communicate()[0]
        time.sleep(0.05)
    os.kill(int((tmp_path / "victim.pid").read_text()), signal.SIGKILL)
    out, _ = launcher.communicate(timeout=120)
    assert launcher.returncode in (137, 1), out  # the victim's SIGKILL, or the peer's error seen first
    assert "[launch] restart" not in out
    backup = tmp_path / "backup"  # kept for the next run to resume, under Keras 3's names
    assert sorted(os.listdir(backup)) == ["latest.weights.h5", "training_metadata.json"]
    assert json.loads((backup / "training_metadata.json").read_text()) == {"epoch": 2, "batch": 0}
    manifest = json.loads(str(np.load(backup / "latest.weights.h5")["__manifest__"]))
    assert manifest["training_state"] == {"epoch": 2, "batch": 0}

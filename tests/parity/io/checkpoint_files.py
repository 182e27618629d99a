"""Checkpoint files carry TF's names: P.index and P.data-00000-of-00001, the `checkpoint` state
file, SavedModel's variables/; code that lists, globs or tests for them sees what TF shows."""
import glob
import os
import tempfile

import tensorflow as tf

folder = tempfile.mkdtemp()
checkpoint = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0]), step=tf.Variable(0))
first = checkpoint.save(os.path.join(folder, "ckpt"))
print(os.path.basename(first), sorted(os.listdir(folder)))
print(os.path.exists(first + ".index"), os.path.exists(first))
written = checkpoint.write(os.path.join(folder, "weights"))
print(os.path.basename(written), sorted(os.listdir(folder)))
print(sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.index"))))
print(sorted(os.path.basename(p) for p in tf.io.gfile.glob(os.path.join(folder, "*.data-*"))))
print(os.path.basename(tf.train.latest_checkpoint(folder)))

managed = tempfile.mkdtemp()
manager = tf.train.CheckpointManager(checkpoint, managed, max_to_keep=2, checkpoint_name="model")
for _ in range(4):
    checkpoint.step.assign_add(1)
    manager.save()
print(sorted(os.listdir(managed)))
print([os.path.basename(p) for p in manager.checkpoints], os.path.basename(manager.latest_checkpoint))
print([os.path.exists(p + ".index") for p in manager.checkpoints])

try:
    checkpoint.restore(os.path.join(folder, "ckpt"))  # the prefix without the '-1'
except tf.errors.NotFoundError as e:
    print(type(e).__name__, "Failed to find any matching files for" in str(e))
os.remove(first + ".index")
try:
    checkpoint.restore(first)
except tf.errors.NotFoundError as e:
    print(type(e).__name__)
print(tf.train.latest_checkpoint(folder))


class Scaler(tf.Module):
    def __init__(self):
        super().__init__()
        self.k = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        return x * self.k


export = tempfile.mkdtemp()
tf.saved_model.save(Scaler(), export)
print(sorted(os.listdir(export)), sorted(os.listdir(os.path.join(export, "variables"))))
print(os.path.exists(os.path.join(export, "variables", "variables.index")))
print(tf.train.list_variables(os.path.join(export, "variables", "variables"))[-1])


class Crash(tf.keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        if epoch == 2:
            raise RuntimeError("crashed")


backup = os.path.join(tempfile.mkdtemp(), "backup")
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile("sgd", "mse")
x, y = tf.ones((8, 3)), tf.zeros((8, 1))
try:
    model.fit(x, y, epochs=4, verbose=0, callbacks=[tf.keras.callbacks.BackupAndRestore(backup), Crash()])
except RuntimeError as e:
    print(e, sorted(os.listdir(backup)))
with open(os.path.join(backup, "training_metadata.json")) as f:
    print(f.read())
history = model.fit(x, y, epochs=4, verbose=0, callbacks=[tf.keras.callbacks.BackupAndRestore(backup)])
print(history.epoch, os.path.exists(backup))

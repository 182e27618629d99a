"""tf.train.list_variables / load_variable name a checkpoint's values with TF's keys."""
import os
import tempfile

import tensorflow as tf

folder = tempfile.mkdtemp()
step = tf.Variable(0, dtype=tf.int64)
checkpoint = tf.train.Checkpoint(v=tf.Variable(3.0), w=tf.Variable([1, 2]), step=step)
manager = tf.train.CheckpointManager(checkpoint, folder, max_to_keep=2)
for _ in range(3):
    checkpoint.step.assign_add(1)
    manager.save()
print([os.path.basename(path) for path in manager.checkpoints], os.path.basename(manager.latest_checkpoint))
print(tf.train.list_variables(folder))
for key in ("w/.ATTRIBUTES/VARIABLE_VALUE", "step/.ATTRIBUTES/VARIABLE_VALUE"):
    print(key, tf.train.load_variable(folder, key))
try:
    tf.train.load_variable(folder, "nope")
except tf.errors.NotFoundError as e:
    print(type(e).__name__, str(e).startswith("Key nope not found in checkpoint"))
partial = tf.train.Checkpoint(v=tf.Variable(0.0))
status = partial.restore(manager.latest_checkpoint)
try:
    status.assert_consumed()
except AssertionError as e:
    print(type(e).__name__)
status.expect_partial()
print(partial.v.numpy())

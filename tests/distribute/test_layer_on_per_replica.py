"""A Keras layer called on a distributed batch outside strategy.run says to use strategy.run."""

import os
import subprocess
import sys

PROGRAM = """
import numpy as np, companion as tf
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])  # the forced CPUs, on a GPU machine too
with strategy.scope():
    dense = tf.keras.layers.Dense(2)
batches = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices(np.ones((4, 3), np.float32)).batch(4))
batch = next(iter(batches))
try:
    dense(batch)
except TypeError as error:
    print("TypeError:", error)
print(strategy.run(lambda x: dense(x), args=(batch,)).values[0].shape)
"""


def test_a_layer_on_a_per_replica_value_points_at_strategy_run():
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=2"}
    done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("TypeError: Layer 'dense' was called on a PerReplica value")
    assert "strategy.run(step, args=(batch,))" in lines[0]
    assert lines[1] == "(2, 2)"

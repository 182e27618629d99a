"""An eager MirroredStrategy.run on two replicas runs the function's Python on every call, so it
sees the current values of what it closes over (a Python number, a captured tensor)."""
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy()
print(strategy.num_replicas_in_sync)

scale = 1.0


def scaled(x):
    return x * scale


for s in (1.0, 2.0, 3.0):
    scale = s
    out = strategy.run(scaled, args=(tf.constant(1.0),))
    print([float(v) for v in strategy.experimental_local_results(out)])

held = {"t": tf.constant(1.0)}


def shifted(x):
    return tf.distribute.get_replica_context().all_reduce("SUM", x + held["t"])


for s in (1.0, 5.0, 5.0):
    held["t"] = tf.constant(s)
    out = strategy.run(shifted, args=(tf.constant(1.0),))
    local = [float(v) for v in strategy.experimental_local_results(out)]
    print(local, float(strategy.reduce("MEAN", out, axis=None)))

"""get_logger, config and executing_eagerly."""
import tensorflow as tf

logger = tf.get_logger()
print(type(logger).__name__, logger.name)
print(tf.executing_eagerly())
print(len(tf.config.list_physical_devices("CPU")) >= 1)
print(len(tf.config.list_physical_devices("GPU")))
print(tf.__version__ >= "2")
tf.debugging.set_log_device_placement(False)
print(tf.config.functions_run_eagerly())

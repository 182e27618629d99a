"""experimental_local_results and the shape of run results with one replica."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
out = strategy.run(lambda: tf.constant([1, 2]))
local = strategy.experimental_local_results(out)
print(type(local).__name__, len(local))
print(local[0])
print(strategy.reduce("SUM", out, axis=None))

"""Metrics created in a scope and updated in a distributed step."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    acc = tf.keras.metrics.SparseCategoricalAccuracy()
    mean = tf.keras.metrics.Mean()

@tf.function
def step(labels, probs):
    def fn(labels, probs):
        acc.update_state(labels, probs)
        mean.update_state(tf.reduce_max(probs, axis=1))
    strategy.run(fn, args=(labels, probs))

step(tf.constant([0, 1]), tf.constant([[0.9, 0.1], [0.8, 0.2]]))
print(float(acc.result()), round(float(mean.result()), 4))

"""Reduction.NONE with compute_average_loss over the global batch."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def compute_loss(labels, logits):
        per_example = loss_object(labels, logits)
        return tf.nn.compute_average_loss(per_example, global_batch_size=4)

labels = tf.constant([0, 1, 1, 0])
logits = tf.constant([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0], [0.0, 0.0]])
print(round(float(strategy.run(compute_loss, args=(labels, logits))), 5))
print(loss_object(labels, logits).shape)

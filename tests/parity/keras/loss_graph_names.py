"""Inside a function, a Keras loss names its ops under the loss's name, as Keras 3 does: the per-example
op, the reduction's last op (div_no_nan, Sum, mul), a scope made unique for the next call."""
import numpy as np
import tensorflow as tf

losses = tf.keras.losses
SCCE = losses.SparseCategoricalCrossentropy


@tf.function
def f(labels, logits, onehot):
    print(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    print(SCCE(from_logits=True, reduction="none")(labels, logits))
    print(SCCE(from_logits=True, reduction=losses.Reduction.NONE)(labels, logits))
    print(SCCE(from_logits=True)(labels, logits))
    print(SCCE(reduction="none")(labels, tf.nn.softmax(logits)))
    print(SCCE(from_logits=True)(labels, logits, sample_weight=tf.constant([1.0, 2.0])))
    print(losses.MeanSquaredError(reduction="none")(onehot, logits))
    print(losses.MeanSquaredError()(onehot, logits))
    print(losses.MeanSquaredError(reduction="sum")(onehot, logits))
    print(losses.MeanSquaredError(reduction="none")(onehot, logits, sample_weight=tf.constant([1.0, 2.0])))
    print(losses.MeanAbsoluteError(reduction="none")(onehot, logits))
    print(losses.BinaryCrossentropy(reduction="none")(onehot, tf.nn.sigmoid(logits)))
    with tf.name_scope("a"):
        print(logits + 1)
    with tf.name_scope("a") as scope:
        print(scope, logits + 1)
        with tf.name_scope("b"):
            print(logits * 2)
    return 0


f(tf.constant([1, 2]), tf.constant(np.ones((2, 3), np.float32)), tf.constant(np.eye(3, dtype=np.float32)[:2]))

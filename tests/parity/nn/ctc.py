"""tf.nn.ctc_loss (time- and batch-major logits, dense and sparse labels, blank_index, gradient,
tf.function) and tf.nn.ctc_greedy_decoder."""
import numpy as np
import tensorflow as tf

logits = tf.constant(np.random.RandomState(0).randn(5, 2, 4).astype(np.float32))
labels = tf.constant([[1, 2, 0], [3, 3, 1]])
print(tf.nn.ctc_loss(labels, logits, label_length=[2, 3], logit_length=[5, 5]))
print(tf.nn.ctc_loss(labels, tf.transpose(logits, [1, 0, 2]), [2, 3], [5, 4], logits_time_major=False))
print(tf.nn.ctc_loss(labels, logits, [2, 3], [5, 5], blank_index=-1))
print(tf.nn.ctc_loss(tf.sparse.from_dense(labels), logits, None, [5, 5], blank_index=0))
with tf.GradientTape() as tape:
    tape.watch(logits)
    loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, [2, 3], [5, 5]))
print(loss)
print(tape.gradient(loss, logits)[:, 1])


@tf.function
def traced(y, x):
    return tf.nn.ctc_loss(y, x, [2, 3], [5, 5])


print(traced(labels, logits))

(decoded,), neg_sum = tf.nn.ctc_greedy_decoder(logits, [5, 4])
print(decoded.indices, decoded.values, decoded.dense_shape)
print(neg_sum)
print(tf.sparse.to_dense(decoded, default_value=-1))
(kept,), _ = tf.nn.ctc_greedy_decoder(logits, [5, 4], merge_repeated=False)
print(tf.sparse.to_dense(kept, default_value=-1))
(blank_first,), _ = tf.nn.ctc_greedy_decoder(logits, [5, 4], blank_index=0)
print(tf.sparse.to_dense(blank_first))
try:
    tf.nn.ctc_loss(labels, tf.cast(logits, tf.float64), [2, 3], [5, 5])
except Exception as e:  # noqa: BLE001 - the class is what is compared
    print(type(e).__name__)

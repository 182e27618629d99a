"""tf.nn.ctc_loss and tf.nn.ctc_greedy_decoder against TF 2.21's printed values: time-major and
batch-major logits, dense and sparse labels, blank_index, gradients, and the decoder's SparseTensor."""

import numpy as np
import pytest

import companion as tf


def _logits():
    return tf.constant(np.random.RandomState(0).randn(5, 2, 4).astype(np.float32))  # [frames, batch, classes]


LABELS = [[1, 2, 0], [3, 3, 1]]


def test_ctc_loss_tf_values():
    logits, labels = _logits(), tf.constant(LABELS)
    # TF 2.21
    loss = tf.nn.ctc_loss(labels, logits, label_length=[2, 3], logit_length=[5, 5])
    np.testing.assert_allclose(loss.numpy(), [3.8038669, 6.419145], rtol=1e-5)
    batch_major = tf.nn.ctc_loss(labels, tf.transpose(logits, [1, 0, 2]), [2, 3], [5, 4],
                                 logits_time_major=False)
    np.testing.assert_allclose(batch_major.numpy(), [3.8038669, 6.8536415], rtol=1e-5)
    np.testing.assert_allclose(tf.nn.ctc_loss(labels, logits, [2, 3], [5, 5], blank_index=-1).numpy(),
                               [4.8030963, 4.7975984], rtol=1e-5)
    np.testing.assert_allclose(tf.nn.ctc_loss(tf.constant([[1, 2, 0], [2, 0, 1]]), logits, [2, 3], [5, 5],
                                              blank_index=3).numpy(), [4.8030963, 3.8803825], rtol=1e-5)
    sparse = tf.sparse.from_dense(labels)
    np.testing.assert_allclose(tf.nn.ctc_loss(sparse, logits, None, [5, 5], blank_index=0).numpy(),
                               [3.8038669, 6.419145], rtol=1e-5)
    traced = tf.function(lambda y, x: tf.nn.ctc_loss(y, x, [2, 3], [5, 5]))(labels, logits)
    np.testing.assert_allclose(traced.numpy(), [3.8038669, 6.419145], rtol=1e-5)


def test_ctc_loss_gradient():
    logits = _logits()
    with tf.GradientTape() as tape:
        tape.watch(logits)
        y = tf.reduce_sum(tf.nn.ctc_loss(tf.constant(LABELS), logits, [2, 3], [5, 5]))
    # TF 2.21: the first sequence's gradient
    np.testing.assert_allclose(tape.gradient(y, logits)[:, 0].numpy(), [
        [-0.39041302, -0.23167306, 0.13723414, 0.48485196], [-0.02583274, -0.60462904, 0.08478295, 0.5456788],
        [-0.06528306, -0.04325423, 0.04827031, 0.06026702], [-0.02001089, 0.01096208, -0.06130943, 0.0703583],
        [-0.04258226, 0.0568923, -0.49648428, 0.48217425]], rtol=1e-4, atol=1e-6)


def test_ctc_loss_errors():
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21 fails on float64 logits
        tf.nn.ctc_loss(tf.constant(LABELS), tf.cast(_logits(), tf.float64), [2, 3], [5, 5])
    with pytest.raises(ValueError, match="label_length"):
        tf.nn.ctc_loss(tf.constant(LABELS), _logits(), None, [5, 5])


def test_ctc_greedy_decoder():
    logits = _logits()
    (decoded,), score = tf.nn.ctc_greedy_decoder(logits, [5, 4])
    # TF 2.21
    assert decoded.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [1, 2]]
    assert decoded.values.dtype == tf.int64 and decoded.values.numpy().tolist() == [0, 0, 2, 0]
    assert decoded.dense_shape.numpy().tolist() == [2, 3]
    np.testing.assert_allclose(score.numpy(), [[-7.61535], [-5.025811]], rtol=1e-6)
    (kept,), _ = tf.nn.ctc_greedy_decoder(logits, [5, 4], merge_repeated=False)
    assert kept.values.numpy().tolist() == [0, 0, 0, 0, 2, 0] and kept.dense_shape.numpy().tolist() == [2, 4]
    (blank0,), _ = tf.nn.ctc_greedy_decoder(logits, [5, 4], blank_index=0)
    assert tf.sparse.to_dense(blank0).numpy().tolist() == [[3, 3], [2, 0]]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.nn.ctc_greedy_decoder(logits, [6, 4])

"""keras.backend.ctc_batch_cost / ctc_decode (probabilities in, blank = last class) against the values
TF 2.21's tf.keras.backend printed for the same inputs, and TF's error classes."""

import numpy as np
import pytest

import companion as tf
from companion.keras import backend as K

RNG = np.random.RandomState(0)
LOGITS = RNG.randn(3, 6, 5).astype("float32")
PROBS = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
LABELS = np.array([[1, 2, 2, 0], [3, 3, 0, 0], [0, 1, 2, 3]], "int32")
LABEL_LENGTH = np.array([[3], [2], [4]], "int32")
INPUT_LENGTH = np.array([[6], [5], [6]], "int32")
TF_COST = [[7.0414], [7.4072], [8.1814]]


def test_batch_cost_matches_tf():
    cost = K.ctc_batch_cost(LABELS, PROBS, INPUT_LENGTH, LABEL_LENGTH)
    assert cost.shape == (3, 1) and cost.dtype == tf.float32
    np.testing.assert_allclose(cost.numpy(), TF_COST, atol=1e-4)
    junk = np.array([[1, 2, 2, 7], [3, 3, 9, -1], [0, 1, 2, 3]], "int32")  # past each length: ignored
    np.testing.assert_allclose(K.ctc_batch_cost(junk, PROBS, INPUT_LENGTH, LABEL_LENGTH).numpy(), TF_COST,
                               atol=1e-4)
    traced = tf.function(K.ctc_batch_cost)(LABELS.astype("float32"), PROBS, INPUT_LENGTH.astype("int64"),
                                           LABEL_LENGTH.astype("int64"))
    np.testing.assert_allclose(traced.numpy(), TF_COST, atol=1e-4)


def test_a_label_no_path_can_spell_costs_inf():
    cost = K.ctc_batch_cost(np.array([[1, 1, 1]]), PROBS[:1, :4], np.array([[4]]), np.array([[3]]))
    assert np.isinf(cost.numpy()).all()


def test_batch_cost_gradient_matches_tf():
    variable = tf.Variable(PROBS)
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(K.ctc_batch_cost(LABELS, variable, INPUT_LENGTH, LABEL_LENGTH))
    np.testing.assert_allclose(tape.gradient(total, variable).numpy()[0, :2],
                               [[1.0, -3.537, 1.0, 1.0, -1.95], [1.0, -0.779, 0.458, 1.0, 0.226]], atol=2e-3)


def test_greedy_decode_matches_tf():
    decoded, log_prob = K.ctc_decode(PROBS, np.array([6, 5, 6]))
    assert len(decoded) == 1 and decoded[0].dtype == tf.int64 and decoded[0].shape == (3, 6)
    assert decoded[0].numpy().tolist() == [[3, 1, 3, -1, -1, -1], [1, 3, 2, 1, -1, -1],
                                           [2, 0, -1, -1, -1, -1]]
    np.testing.assert_allclose(log_prob.numpy(), [[4.6863], [3.7352], [5.3652]], atol=1e-4)
    decoded, log_prob = K.ctc_decode(PROBS, np.array([0, 3, 6]))
    assert decoded[0].numpy()[0].tolist() == [-1] * 6
    assert log_prob.numpy()[0, 0] == 0.0 and not np.signbit(log_prob.numpy()[0, 0])


@pytest.mark.parametrize("labels, input_length, label_length", [
    (LABELS, INPUT_LENGTH, np.array([[0], [2], [4]])),  # a label of length 0
    (np.array([[4, 1, 0, 0]] * 3), INPUT_LENGTH, LABEL_LENGTH),  # the blank used as a label
    (LABELS, np.array([[7], [5], [6]]), LABEL_LENGTH),  # more steps than y_pred has
    (LABELS, np.array([[2], [5], [6]]), LABEL_LENGTH),  # a label longer than its input
])
def test_batch_cost_refuses_what_tf_refuses(labels, input_length, label_length):
    with pytest.raises(tf.errors.InvalidArgumentError):
        K.ctc_batch_cost(labels, PROBS, input_length, label_length)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.function(K.ctc_batch_cost)(labels, PROBS, input_length, label_length)


def test_decode_errors():
    with pytest.raises(tf.errors.FailedPreconditionError):
        K.ctc_decode(PROBS, np.array([7, 5, 6]))


def _softmax(logits):
    return (np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)).astype("float32")


BEAM_PROBS = _softmax(np.random.RandomState(1).randn(3, 6, 5))


@pytest.mark.parametrize("beam_width, decoded, log_prob", [
    (1, [[[0, 1, 0, 1, -1, -1], [1, 3, 2, -1, -1, -1], [1, 3, -1, -1, -1, -1]]],
     [[-4.07726], [-2.68543], [-1.51858]]),
    (3, [[[0, 1, 0, 1, -1, -1], [1, 3, 2, -1, -1, -1], [1, 3, -1, -1, -1, -1]],
         [[0, 1, 0, 3, -1, -1], [3, 2, -1, -1, -1, -1], [1, -1, -1, -1, -1, -1]]],
     [[-3.70537, -3.77836], [-2.68543, -2.95992], [-1.51858, -2.13722]]),
    (5, [[[0, 1, 0, 1, -1, -1], [3, 2, -1, -1, -1, -1], [1, 3, -1, -1, -1, -1]],
         [[0, 1, 0, 3, -1, -1], [2, 3, 2, -1, -1, -1], [3, -1, -1, -1, -1, -1]]],
     [[-3.35838, -3.77779], [-2.32081, -2.42158], [-1.51858, -1.899]]),
    (50, [[[0, 1, 0, 1, -1, -1], [3, 2, -1, -1, -1, -1], [1, 3, -1, -1, -1, -1]],
          [[0, 1, 0, 3, -1, -1], [1, 3, 2, -1, -1, -1], [3, -1, -1, -1, -1, -1]]],
     [[-3.35694, -3.7759], [-2.06385, -2.26937], [-1.51858, -1.899]]),
])
def test_beam_search_decode_matches_tf(beam_width, decoded, log_prob):
    top_paths = len(decoded)
    for run in (K.ctc_decode, tf.function(K.ctc_decode, reduce_retracing=False)):
        paths, scores = run(BEAM_PROBS, np.array([6, 4, 2]), greedy=False, beam_width=beam_width,
                            top_paths=top_paths)
        assert [p.numpy().tolist() for p in paths] == decoded and paths[0].dtype == tf.int64
        assert scores.shape == (3, top_paths) and scores.dtype == tf.float32
        np.testing.assert_allclose(scores.numpy(), log_prob, atol=2e-5)


def test_beam_search_sums_paths_and_merges_repeats():
    # uniform over {0, 1, blank} for 3 steps: "0" is spelled by 6 of the 27 paths
    paths, scores = K.ctc_decode(np.full((1, 3, 3), 1 / 3, "float32"), [3], greedy=False, beam_width=4,
                                 top_paths=4)
    assert [p.numpy().tolist() for p in paths] == [[[0, -1, -1]], [[1, -1, -1]], [[0, 1, -1]], [[1, 0, -1]]]
    np.testing.assert_allclose(scores.numpy(), [[-1.50408, -1.50408, -1.6864, -2.19722]], atol=1e-5)
    probs = np.array([[[0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1]]], "float32")
    paths, scores = K.ctc_decode(probs, [3], greedy=False, beam_width=5, top_paths=3)
    assert [p.numpy().tolist() for p in paths] == [[[0, -1, -1]], [[1, 0, -1]], [[0, -1, -1]]]  # "0 0" merged
    np.testing.assert_allclose(scores.numpy(), [[-1.37833, -1.46968, -1.66073]], atol=1e-5)
    unnormalized = np.array([[[2.0, 1.0, 1.0], [1.0, 3.0, 1.0]]], "float32")  # each step is normalized
    paths, scores = K.ctc_decode(unnormalized, [2], greedy=False, beam_width=4, top_paths=2)
    assert [p.numpy().tolist() for p in paths] == [[[1, -1]], [[0, 1]]]
    np.testing.assert_allclose(scores.numpy(), [[-1.04982, -1.20397]], atol=1e-5)
    paths, scores = K.ctc_decode(np.array([[[0, 0, 1], [1, 0, 0]]], "float32"), [2], greedy=False,
                                 beam_width=3, top_paths=2)
    assert [p.numpy().tolist() for p in paths] == [[[0, -1]], [[-1, -1]]]
    np.testing.assert_allclose(scores.numpy(), [[0.0, -16.1181]], atol=1e-4)
    paths, scores = K.ctc_decode(BEAM_PROBS[:2], [5, 0], greedy=False, beam_width=3)  # no steps: [], 0.0
    assert paths[0].numpy().tolist()[1] == [-1] * 6 and scores.numpy()[1].tolist() == [0.0]


def test_beam_search_errors():
    lengths = np.array([6, 6, 6])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^requested more paths than the beam width"):
        K.ctc_decode(BEAM_PROBS, lengths, greedy=False, beam_width=2, top_paths=3)
    for beam_width, top_paths in ((0, 1), (3, 0)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="must be at least minimum 1"):
            K.ctc_decode(BEAM_PROBS, lengths, greedy=False, beam_width=beam_width, top_paths=top_paths)
    with pytest.raises(tf.errors.FailedPreconditionError, match=r"^sequence_length\(0\) <= 6"):
        K.ctc_decode(BEAM_PROBS, np.array([7, 6, 6]), greedy=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Less leaves in the beam search than"):
        K.ctc_decode(np.array([[[0.5, 0.5]]], "float32"), [1], greedy=False, beam_width=3, top_paths=3)

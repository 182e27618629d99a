"""tf.keras.backend.ctc_decode(greedy=False): CTC beam search over softmax probabilities (blank = last
class): the top paths and their log-probabilities for several beam widths, repeats merged, a sample
with no steps, inside a tf.function, and the errors."""
import numpy as np
import tensorflow as tf

K = tf.keras.backend
rng = np.random.RandomState(7)


def softmax(logits):
    return (np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)).astype("float32")


probs = softmax(rng.randn(3, 8, 6) * 2.0)
lengths = np.array([8, 5, 2], "int32")
for beam_width, top_paths in [(1, 1), (2, 2), (4, 3), (16, 3), (100, 1)]:
    decoded, log_prob = K.ctc_decode(probs, lengths, greedy=False, beam_width=beam_width,
                                     top_paths=top_paths)
    print(beam_width, top_paths, [d.numpy().tolist() for d in decoded],
          np.round(log_prob.numpy(), 4).tolist())
    print(decoded[0].dtype.name, log_prob.dtype.name, log_prob.shape)

repeats = np.array([[[0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1]]], "float32")
decoded, log_prob = K.ctc_decode(repeats, np.array([3]), greedy=False, beam_width=5, top_paths=3)
print([d.numpy().tolist() for d in decoded], np.round(log_prob.numpy(), 4).tolist())


@tf.function
def decode(p, lengths):
    return K.ctc_decode(p, lengths, greedy=False, beam_width=3, top_paths=2)


decoded, log_prob = decode(probs[:2], lengths[:2])
print([d.numpy().tolist() for d in decoded], np.round(log_prob.numpy(), 4).tolist())
decoded, log_prob = K.ctc_decode(probs[:2], np.array([3, 0]), greedy=False, beam_width=4)  # no steps
print([d.numpy().tolist() for d in decoded], np.round(log_prob.numpy(), 4).tolist())

for beam_width, top_paths, sample_lengths in [(2, 3, [8, 8, 8]), (0, 1, [8, 8, 8]), (3, 1, [9, 8, 8])]:
    try:
        K.ctc_decode(probs, np.array(sample_lengths), greedy=False, beam_width=beam_width,
                     top_paths=top_paths)
        print("no error")
    except (tf.errors.InvalidArgumentError, tf.errors.FailedPreconditionError) as e:
        print(type(e).__name__)
try:
    K.ctc_decode(np.array([[[0.5, 0.5]]], "float32"), np.array([1]), greedy=False, beam_width=3, top_paths=3)
    print("no error")
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)

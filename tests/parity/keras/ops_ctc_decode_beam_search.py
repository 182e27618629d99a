"""tf.keras.ops.ctc_decode(strategy="beam_search"): Keras 3's beam search over logits (blank =
mask_index, moved last for TF's decoder): top paths and their log-probabilities, several beam
widths and blank positions, repeats kept, float64, inside a tf.function, and the errors."""
import numpy as np
import tensorflow as tf

ops = tf.keras.ops
rng = np.random.RandomState(3)
logits = (rng.randn(3, 7, 5) * 2.0).astype("float32")
lengths = np.array([7, 5, 2], "int32")


def show(decoded, scores):
    print(tuple(decoded.shape), decoded.dtype.name, tuple(scores.shape), scores.dtype.name)
    print(np.asarray(decoded).tolist())
    print(np.round(np.asarray(scores), 4).tolist())


for beam_width, top_paths in [(1, 1), (3, 2), (10, 3), (100, 1)]:
    show(*ops.ctc_decode(logits, lengths, strategy="beam_search", beam_width=beam_width, top_paths=top_paths))
for mask_index in (None, 2, 4):
    show(*ops.ctc_decode(logits, lengths, strategy="beam_search", top_paths=2, mask_index=mask_index))

repeats = np.full((1, 4, 3), -5.0, "float32")
repeats[0, :, 1] = 0.0
show(*ops.ctc_decode(repeats, np.array([4]), strategy="beam_search", top_paths=2))
show(*ops.ctc_decode(logits.astype("float64"), lengths, strategy="beam_search"))


@tf.function
def decode(x, n):
    return ops.ctc_decode(x, n, strategy="beam_search", beam_width=4, top_paths=2)


show(*decode(logits, lengths))

for kwargs in ({"beam_width": 1, "top_paths": 2}, {"beam_width": 0}, {"strategy": "best"}):
    try:
        ops.ctc_decode(logits, lengths, **{"strategy": "beam_search", **kwargs})
    except Exception as e:
        print(kwargs, type(e).__name__)

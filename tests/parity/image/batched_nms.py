"""combined_non_max_suppression and non_max_suppression_padded: TF's selections, paddings, errors."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)


def random_boxes(*shape):
    center = rng.uniform(-0.2, 1.2, shape + (2,))
    size = rng.uniform(0.05, 0.5, shape + (2,))
    return np.concatenate([center - size / 2, center + size / 2], -1).astype(np.float32)


for q, pad_per_class, clip in ((1, False, True), (3, True, False), (3, False, True)):
    boxes = random_boxes(2, 12, q)
    scores = rng.uniform(0, 1, (2, 12, 3)).astype(np.float32)
    out = tf.image.combined_non_max_suppression(boxes, scores, max_output_size_per_class=3, max_total_size=8,
                                                iou_threshold=0.4, score_threshold=0.2,
                                                pad_per_class=pad_per_class, clip_boxes=clip)
    for t in out:
        print(t.dtype.name, t.shape, np.round(t.numpy(), 4).tolist())

for threshold, score_threshold, pad in ((0.3, float("-inf"), True), (0.5, 0.4, False), (0.2, 0.1, True)):
    boxes = random_boxes(20)
    scores = rng.uniform(0, 1, 20).astype(np.float32)
    idx, n = tf.image.non_max_suppression_padded(tf.constant(boxes), tf.constant(scores), 7, threshold,
                                                 score_threshold, pad_to_max_output_size=pad)
    print(idx.dtype.name, idx.shape, idx.numpy().tolist(), n.dtype.name, int(n))

flipped = tf.constant([[1.0, 1.0, 0.0, 0.0], [0.0, 0.1, 1.0, 1.1], [-2.0, -2.0, -1.0, -1.0],
                       [0.0, 2.0, 1.0, 3.0]])
idx, n = tf.image.non_max_suppression_padded(flipped, tf.constant([0.9, 0.8, 0.95, 0.7]), 4,
                                             pad_to_max_output_size=True)
print(idx.numpy().tolist(), int(n))
batch = tf.constant(random_boxes(3, 10))
batch_scores = tf.constant(rng.uniform(0, 1, (3, 10)).astype(np.float32))
idx, n = tf.image.non_max_suppression_padded(batch, batch_scores, 4, 0.3, pad_to_max_output_size=True)
print(idx.shape, idx.numpy().tolist(), n.numpy().tolist())

for bad in (lambda: tf.image.non_max_suppression_padded(batch, tf.ones([3, 10]), 4),
            lambda: tf.image.combined_non_max_suppression(tf.ones([2, 12, 2, 4]), tf.ones([2, 12, 3]), 3, 5),
            lambda: tf.image.combined_non_max_suppression(tf.ones([2, 12, 1, 4]), tf.ones([2, 12, 3]), 3, 0),
            lambda: tf.image.combined_non_max_suppression(tf.ones([2, 12, 1, 4]), tf.ones([2, 12, 3]), 3, 5,
                                                          iou_threshold=1.5)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__)

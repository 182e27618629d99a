"""image.combined_non_max_suppression and non_max_suppression_padded against a plain NumPy greedy
NMS (highest score first, drop boxes overlapping a kept one), plus the documented rules of TF's
padded algorithm (IoU >= threshold drops; boxes without a positive coordinate are not counted)."""

import numpy as np
import pytest

import companion as tf


def _boxes(rng, *shape):
    center = rng.uniform(0.1, 0.9, shape + (2,))
    size = rng.uniform(0.05, 0.5, shape + (2,))
    return np.concatenate([center - size / 2, center + size / 2], -1).astype(np.float32)


def _iou(a, b):
    inter = max(min(a[2], b[2]) - max(a[0], b[0]), 0) * max(min(a[3], b[3]) - max(a[1], b[1]), 0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union


def _greedy(boxes, scores, limit, threshold, score_threshold=-np.inf, drops=lambda iou, t: iou > t):
    kept = []
    for i in sorted(range(len(scores)), key=lambda i: (-scores[i], i)):
        if scores[i] > score_threshold and all(not drops(_iou(boxes[i], boxes[j]), threshold) for j in kept):
            kept.append(i)
    return kept[:limit]


@pytest.mark.parametrize("q, pad_per_class, clip", [(1, False, True), (3, True, False), (3, False, True)])
def test_combined_matches_greedy_per_class(q, pad_per_class, clip):
    rng = np.random.default_rng(q)
    boxes = _boxes(rng, 2, 15, q) * 1.3 - 0.15  # some corners outside [0, 1] for clip_boxes
    scores = rng.uniform(0, 1, (2, 15, 3)).astype(np.float32)
    out_boxes, out_scores, out_classes, valid = tf.image.combined_non_max_suppression(
        boxes, scores, 4, 10, iou_threshold=0.3, score_threshold=0.2, pad_per_class=pad_per_class,
        clip_boxes=clip)
    width = min(10, 4 * 3) if pad_per_class else 10
    assert out_boxes.shape == (2, width, 4) and valid.dtype == tf.int32
    for b in range(2):
        picks = []
        for c in range(3):
            chosen = _greedy(boxes[b, :, c % q], scores[b, :, c], 4, 0.3, 0.2)
            picks += [(scores[b, i, c], c, boxes[b, i, c % q]) for i in chosen]
        picks.sort(key=lambda p: -p[0])
        picks = picks[:width]
        assert valid.numpy()[b] == len(picks)
        np.testing.assert_array_equal(out_scores.numpy()[b, :len(picks)], [p[0] for p in picks])
        np.testing.assert_array_equal(out_classes.numpy()[b, :len(picks)], [p[1] for p in picks])
        want = np.asarray([p[2] for p in picks])
        want = np.clip(want, 0, 1) if clip else want
        np.testing.assert_array_equal(out_boxes.numpy()[b, :len(picks)], want)
        assert not out_scores.numpy()[b, len(picks):].any()


@pytest.mark.parametrize("seed", range(4))
def test_padded_matches_greedy(seed):
    rng = np.random.default_rng(seed)
    boxes, scores = _boxes(rng, 40), rng.uniform(0, 1, 40).astype(np.float32)
    indices, count = tf.image.non_max_suppression_padded(boxes, scores, 8, 0.3, 0.1,
                                                         pad_to_max_output_size=True)
    want = _greedy(boxes, scores, 8, 0.3, 0.1, drops=lambda iou, t: iou >= t)
    assert int(count) == len(want)
    assert indices.numpy().tolist() == want + [0] * (8 - len(want))
    cut, _ = tf.image.non_max_suppression_padded(boxes, scores, 8, 0.3, 0.1)
    assert cut.numpy().tolist() == want


def test_padded_with_small_tiles_and_a_batch():
    rng = np.random.default_rng(7)
    boxes, scores = _boxes(rng, 2, 3, 30), rng.uniform(0, 1, (2, 3, 30)).astype(np.float32)
    indices, count = tf.image.non_max_suppression_padded(boxes, scores, 5, 0.4, pad_to_max_output_size=True,
                                                         tile_size=8)
    assert indices.shape == (2, 3, 5) and count.shape == (2, 3)
    for b, i in np.ndindex(2, 3):
        want = _greedy(boxes[b, i], scores[b, i], 5, 0.4, drops=lambda iou, t: iou >= t)
        assert indices.numpy()[b, i, :len(want)].tolist() == want and count.numpy()[b, i] == len(want)


def test_padded_does_not_count_boxes_without_a_positive_coordinate():
    boxes = np.asarray([[-2, -2, -1, -1], [0, 0, 1, 1], [0, 2, 1, 3]], np.float32)
    indices, count = tf.image.non_max_suppression_padded(boxes, np.float32([0.9, 0.8, 0.7]), 3,
                                                         pad_to_max_output_size=True)
    assert indices.numpy().tolist() == [1, 2, 0] and int(count) == 2


@pytest.mark.parametrize("call, error", [
    (lambda: tf.image.non_max_suppression_padded(tf.ones([2, 3, 4]), tf.ones([2, 3]), 2), ValueError),
    (lambda: tf.image.combined_non_max_suppression(tf.ones([2, 4, 2, 4]), tf.ones([2, 4, 3]), 3, 5),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.combined_non_max_suppression(tf.ones([2, 4, 4]), tf.ones([2, 4, 3]), 3, 5),
     tf.errors.InvalidArgumentError),
    (lambda: tf.image.combined_non_max_suppression(tf.ones([1, 4, 1, 4]), tf.ones([1, 4, 3]), 3, 0),
     tf.errors.InvalidArgumentError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()

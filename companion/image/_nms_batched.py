"""Batched non-max suppression: `combined_non_max_suppression` (per class, then across classes, as
TF's CombinedNonMaxSuppression kernel) and `non_max_suppression_padded` (TF's tiled algorithm,
``non_max_suppression_padded_v2``, step for step in float32).

Both run on the host, as `non_max_suppression` does (which boxes survive depends on the values):
inside `companion.function` the function runs eagerly.
"""

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion.image._nms import _checked, _iou_matrix, _select

_EPSILON = np.float32(1e-8)  # added to each union by TF's `_bbox_overlap`


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True,
                                 name=None):
    """Greedy non-max suppression per image and class, then the best boxes over all classes.

    For each image and class, boxes scoring above ``score_threshold`` are picked highest score first,
    dropping those whose IoU with a picked box is above ``iou_threshold``, at most
    ``max_output_size_per_class`` of them; the picks of all classes are then ordered by score and the
    first ``max_total_size`` kept (padded with zeros to ``max_total_size``, or with ``pad_per_class``
    to ``min(max_total_size, max_output_size_per_class * num_classes)``).

    Args:
        boxes: float32 ``[batch, num_boxes, q, 4]`` as ``[y1, x1, y2, x2]``; ``q`` is 1 (one box for
            all classes) or ``num_classes``.
        scores: float32 ``[batch, num_boxes, num_classes]``.
        clip_boxes: whether the boxes returned are clipped to ``[0, 1]``.

    Returns:
        ``(nmsed_boxes [batch, k, 4], nmsed_scores [batch, k], nmsed_classes [batch, k] (float32),
        valid_detections [batch] (int32))``.

    Example:
        >>> import companion as tf
        >>> boxes = tf.constant([[[[0.0, 0.0, 1.0, 1.0]], [[0.0, 0.1, 1.0, 1.1]]]])
        >>> scores = tf.constant([[[0.9, 0.1], [0.8, 0.7]]])
        >>> out = tf.image.combined_non_max_suppression(boxes, scores, 2, 3)
        >>> out[2].numpy().tolist(), out[3].numpy().tolist()
        ([[0.0, 1.0, 0.0]], [2])
    """
    what = "combined_non_max_suppression"
    boxes, scores = _checked(what, (boxes, scores), ("boxes", "scores"))
    boxes, scores = _float32(boxes, "boxes", what), _float32(scores, "scores", what)
    per_class, total = _count(max_output_size_per_class, "max_output_size_per_class", what), \
        _count(max_total_size, "max_total_size", what)
    if total <= 0:
        raise InvalidArgumentError(f"{what}: max_total_size must be > 0. Received: max_total_size={total}")
    threshold = _threshold(iou_threshold, what)
    _check_combined_shapes(boxes, scores, what)
    batch, num_boxes, q, _ = boxes.shape
    classes = scores.shape[2]
    width = min(total, per_class * classes) if pad_per_class else total
    size_per_class = min(per_class, num_boxes)
    low = float(np.float32(np.asarray(score_threshold)))
    outputs = [np.zeros((batch, width, 4), np.float32), np.zeros((batch, width), np.float32),
               np.zeros((batch, width), np.float32), np.zeros((batch,), np.int32)]
    for b in range(batch):
        picks = []
        for c in range(classes):
            class_boxes = boxes[b, :, c if q > 1 else 0].astype(np.float64)
            chosen, _ = _select(_iou_matrix(class_boxes), scores[b, :, c].astype(np.float64), size_per_class,
                                threshold, low, 0.0)
            picks += [(-scores[b, i, c], c, rank, i) for rank, i in enumerate(chosen)]
        picks.sort()  # by score, highest first; equal scores: lower class, then earlier pick
        kept = picks[:min(len(picks), width)]
        outputs[3][b] = len(kept)
        for row, (_, c, _, i) in enumerate(kept):
            box = boxes[b, i, c if q > 1 else 0]
            outputs[0][b, row] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            outputs[1][b, row], outputs[2][b, row] = scores[b, i, c], c
    return tuple(Tensor(o) for o in outputs)


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False, name=None,
                               sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """Non-max suppression of one image or a batch, with a fixed-size output: ``(selected_indices,
    valid_outputs)``, the indices (int32) padded with zeros to ``max_output_size``
    (``pad_to_max_output_size``, needed for a batch) or cut to the valid ones.

    This is TensorFlow's tiled algorithm (``non_max_suppression_padded_v2``), with its rules: a box
    is dropped when its IoU with a kept, higher-scoring box is at least ``iou_threshold``; boxes
    scoring ``<= score_threshold`` are zeroed; the corner order of the first box decides how all
    boxes are read (``canonicalized_coordinates=False``); and a kept box with no positive
    coordinate is not counted as selected.

    Example:
        >>> import companion as tf
        >>> boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 2.0, 1.0, 3.0]])
        >>> indices, count = tf.image.non_max_suppression_padded(boxes, tf.constant([0.9, 0.8, 0.7]), 3,
        ...                                                      pad_to_max_output_size=True)
        >>> indices.numpy().tolist(), int(count)
        ([0, 2, 0], 2)
    """
    what = "non_max_suppression_padded"
    boxes, scores = _checked(what, (boxes, scores), ("boxes", "scores"))
    if not pad_to_max_output_size and boxes.ndim > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for "
                         f"batched input. {what}: boxes of shape {list(boxes.shape)} hold a batch; pass "
                         "pad_to_max_output_size=True.")
    size = _count(max_output_size, "max_output_size", what)
    batch_dims = _check_padded_shapes(boxes, scores, what)
    num_boxes = boxes.shape[-2]
    flat_boxes = np.asarray(boxes).reshape(-1, num_boxes, 4)
    flat_scores = np.asarray(scores).reshape(-1, num_boxes)
    indices, valid = _padded_v2(flat_boxes, flat_scores, size, np.float32(np.asarray(iou_threshold)),
                                float(np.asarray(score_threshold)), sorted_input, canonicalized_coordinates,
                                int(tile_size))
    if not pad_to_max_output_size:
        return Tensor(indices[0, :valid[0]]), Tensor(valid.reshape(batch_dims))
    return Tensor(indices.reshape(batch_dims + (size,))), Tensor(valid.reshape(batch_dims))


def _padded_v2(boxes, scores, size, threshold, score_threshold, sorted_input, canonical, tile):
    """TF's ``non_max_suppression_padded_v2`` on ``[batch, num_boxes, 4]`` NumPy arrays."""
    batch, num_boxes = scores.shape
    if score_threshold != float("-inf"):
        mask = (scores > score_threshold).astype(scores.dtype)
        scores, boxes = scores * mask, boxes * mask[:, :, None].astype(boxes.dtype)
    if not canonical and num_boxes:
        y1, x1, y2, x2 = (boxes[:, :, i] for i in range(4))
        ys = (y1, y2) if y1[0, 0] <= y2[0, 0] else (y2, y1)
        xs = (x1, x2) if x1[0, 0] <= x2[0, 0] else (x2, x1)
        boxes = np.stack([ys[0], xs[0], ys[1], xs[1]], axis=2)
    order = np.zeros_like(scores, np.int32)
    if not sorted_input:
        order = np.argsort(-scores.astype(np.float64), axis=1, kind="stable").astype(np.int32)
        boxes = np.take_along_axis(boxes, order[:, :, None], axis=1)
    padded = -(-max(num_boxes, size) // tile) * tile
    work = np.zeros((batch, padded, 4), np.float32)
    work[:, :num_boxes] = boxes
    selected = _tiles(work, threshold, size, tile)
    valid = np.minimum(selected, size).astype(np.int32)
    ranks = np.any(work > 0, axis=2) * np.arange(padded, 0, -1)[None, :]
    top = -np.sort(-ranks, axis=1)[:, :size]
    picked = np.minimum(padded - top, num_boxes - 1).astype(np.int32)
    if not sorted_input:
        picked = np.take_along_axis(order, np.maximum(picked, 0), axis=1) if num_boxes else picked
    return np.where(np.arange(size)[None, :] < valid[:, None], picked, 0).astype(np.int32), valid


def _tiles(boxes, threshold, size, tile):
    """The tile loop: suppresses ``boxes`` in place (zeroing them) and returns the selected count."""
    batch = boxes.shape[0]
    selected = np.zeros((batch,), np.int64)
    for index in range(boxes.shape[1] // tile):
        if selected.min() >= size:
            break
        block = boxes[:, index * tile:(index + 1) * tile].copy()
        for earlier in range(index):
            iou = _overlap(boxes[:, earlier * tile:(earlier + 1) * tile], block)
            block *= np.all(iou < threshold, axis=1)[:, :, None]
        iou = _overlap(block, block)
        upper = np.arange(tile)[None, :] > np.arange(tile)[:, None]
        iou = iou * (upper[None] & (iou >= threshold))
        iou = _self_suppression(iou, threshold)
        block *= (1.0 - (iou.sum(axis=1) > 0))[:, :, None].astype(np.float32)
        boxes[:, index * tile:(index + 1) * tile] = block
        selected += np.any(block > 0, axis=2).sum(axis=1)
    return selected


def _self_suppression(iou, threshold):
    total, changed = iou.sum(axis=(1, 2)), True
    while changed:
        can_suppress = (iou.max(axis=1) < threshold)[:, :, None].astype(np.float32)
        iou = ((can_suppress * iou).max(axis=1) < threshold)[:, :, None].astype(np.float32) * iou
        new_total = iou.sum(axis=(1, 2))
        changed, total = bool(np.any(total - new_total > threshold)), new_total
    return iou


def _overlap(a, b):
    """TF's ``_bbox_overlap`` in float32: IoU of ``a [batch, n, 4]`` with ``b [batch, m, 4]``."""
    ay1, ax1, ay2, ax2 = (a[:, :, i:i + 1] for i in range(4))
    by1, bx1, by2, bx2 = (b[:, :, i][:, None, :] for i in range(4))
    inter = np.maximum(np.minimum(ax2, bx2) - np.maximum(ax1, bx1), 0) * \
        np.maximum(np.minimum(ay2, by2) - np.maximum(ay1, by1), 0)
    union = (ay2 - ay1) * (ax2 - ax1) + (by2 - by1) * (bx2 - bx1) - inter + _EPSILON
    return (inter / union).astype(np.float32)


def _float32(tensor, name, what):
    if tensor.dtype.name != "float32":
        raise InvalidArgumentError(f"{what} needs float32 {name}. Received dtype {tensor.dtype.name}: cast "
                                   f"it first with tf.cast({name}, tf.float32).")
    return np.asarray(tensor)


def _count(value, name, what):
    array = np.asarray(as_input(value))
    if array.ndim != 0 or array.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{what}: {name} must be a scalar integer. Received: {name}={value!r}")
    return int(array)


def _threshold(value, what):
    threshold = float(np.float32(np.asarray(value)))
    if not 0.0 <= threshold <= 1.0:
        raise InvalidArgumentError(f"{what}: iou_threshold must be in [0, 1]. Received: "
                                   f"iou_threshold={threshold}")
    return threshold


def _check_combined_shapes(boxes, scores, what):
    if boxes.ndim != 4 or boxes.shape[3] != 4:
        raise InvalidArgumentError(f"{what}: boxes must be 4-D [batch, num_boxes, q, 4]. Received shape "
                                   f"{list(boxes.shape)}")
    if scores.ndim != 3 or scores.shape[:2] != boxes.shape[:2]:
        raise InvalidArgumentError(f"{what}: scores must be 3-D [batch, num_boxes, num_classes] matching "
                                   f"boxes {list(boxes.shape)}. Received shape {list(scores.shape)}")
    if boxes.shape[2] not in (1, scores.shape[2]):
        raise InvalidArgumentError(f"{what}: third dimension of boxes must be either 1 or num classes "
                                   f"({scores.shape[2]}). Received boxes of shape {list(boxes.shape)}")


def _check_padded_shapes(boxes, scores, what):
    if boxes.ndim < 2 or boxes.shape[-1] != 4 or tuple(scores.shape) != tuple(boxes.shape[:-1]):
        raise InvalidArgumentError(f"{what}: boxes must be [..., num_boxes, 4] and scores [..., num_boxes]. "
                                   f"Received shapes {list(boxes.shape)} and {list(scores.shape)}")
    return tuple(int(d) for d in boxes.shape[:-2])

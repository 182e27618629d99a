"""Non-max suppression: `non_max_suppression` (hard, or soft with ``soft_nms_sigma``), its
``_with_scores`` and ``_overlaps`` forms, as TensorFlow's NonMaxSuppressionV5 selects.

Boxes are picked greedily, highest score first (equal scores: the lower index first): a box whose
IoU with an already picked box is above ``iou_threshold`` is dropped; with soft NMS nothing is
dropped, its score is scaled by ``exp(-0.5 * iou**2 / sigma)`` per picked box and it waits in line
again. Boxes scoring ``<= score_threshold`` are never picked. The greedy loop runs on the host
(how many boxes come out depends on the values): inside `companion.function` the function runs
eagerly, as for other shapes that only the values decide.
"""

import heapq
import math

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._ops._kernel_dtypes import unsupported_dtype_error
from companion._staging._needs_values import NeedsValues


class _TracedBoxesError(NeedsValues):
    """Raised while tracing: the number of boxes kept depends on their values."""


def _iou_matrix(boxes):
    """The IoU of every pair of boxes ``[y1, x1, y2, x2]`` (corners in either order); 0 for a box of
    no area, as TF."""
    y1, y2 = np.minimum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 0], boxes[:, 2])
    x1, x2 = np.minimum(boxes[:, 1], boxes[:, 3]), np.maximum(boxes[:, 1], boxes[:, 3])
    area = (y2 - y1) * (x2 - x1)
    height = np.maximum(np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None]), 0)
    width = np.maximum(np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None]), 0)
    inter = height * width
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[:, None] + area[None] - inter)
    return np.where((area[:, None] <= 0) | (area[None] <= 0), 0.0, iou)


def _select(similarity, scores, max_output_size, threshold, score_threshold, sigma):
    """TF's greedy selection: (indices, their final scores)."""
    soft = sigma > 0
    scale = -0.5 / sigma if soft else 0.0
    # a heap of (-score, index, the number of picked boxes already applied to the score)
    queue = [(-float(s), i, 0) for i, s in enumerate(scores) if s > score_threshold]
    heapq.heapify(queue)
    picked, picked_scores = [], []
    while len(picked) < max_output_size and queue:
        negative, index, begin = heapq.heappop(queue)
        original = score = -negative
        suppressed = False
        for j in range(len(picked) - 1, begin - 1, -1):
            overlap = float(similarity[index, picked[j]])
            if soft or overlap <= threshold:
                score *= math.exp(scale * overlap * overlap)
            else:
                score = 0.0
            if not soft and overlap > threshold:
                suppressed = True
                break
            if score <= score_threshold:
                break
        if suppressed:
            continue
        if score == original:
            picked.append(index)
            picked_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-score, index, len(picked)))
    return np.asarray(picked, np.int32), np.asarray(picked_scores)


def _checked(what, tensors, names):
    values = []
    for tensor, name in zip(tensors, names):
        tensor = as_input(tensor)
        if tensor.is_traced:
            raise _TracedBoxesError(f"{what}: the number of boxes kept depends on the values of '{name}', "
                                    "so it runs eagerly (not inside a compiled function).")
        values.append(tensor)
    return values


def _float_boxes(what, boxes, scores):
    boxes, scores = _checked(what, (boxes, scores), ("boxes", "scores"))
    for tensor in (boxes, scores):
        if tensor.dtype.name not in ("float16", "float32"):
            raise unsupported_dtype_error()(
                f"Value for attr 'T' of {tensor.dtype.name} is not in the list of allowed values: half, "
                f"float\n{what} needs float32 (or float16) boxes and scores: cast them first. "
                "[Op:NonMaxSuppressionV5]")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise InvalidArgumentError(f"boxes must have 4 columns: {what} needs boxes of shape [num_boxes, 4]. "
                                   f"Received shape {tuple(boxes.shape.as_list())}.")
    if scores.ndim != 1 or scores.shape[0] != boxes.shape[0]:
        raise InvalidArgumentError(f"scores has incompatible shape: {what} needs scores of shape "
                                   f"[{boxes.shape[0]}]. Received shape {tuple(scores.shape.as_list())}.")
    return np.asarray(boxes, np.float64), np.asarray(scores)


def _limits(max_output_size, threshold, what, name="iou_threshold"):
    size = int(np.asarray(max_output_size))
    if size < 0:
        raise InvalidArgumentError(f"output size must be non-negative ({what}: max_output_size={size}).")
    threshold = float(np.asarray(threshold))
    if name == "iou_threshold" and not 0.0 <= threshold <= 1.0:
        raise InvalidArgumentError(f"iou_threshold must be in [0, 1] ({what}: received {threshold}).")
    return size, threshold


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """The indices (int32) of at most ``max_output_size`` boxes, highest score first, none overlapping a
    kept box by IoU above ``iou_threshold`` (module docstring). ``boxes``: ``[num_boxes, 4]`` as
    ``[y1, x1, y2, x2]``; ``scores``: ``[num_boxes]``.

    Example:
        >>> import companion as tf
        >>> boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 2.0, 1.0, 3.0]])
        >>> print(tf.image.non_max_suppression(boxes, tf.constant([0.9, 0.8, 0.7]), 3))
        companion.Tensor([0 2], shape=(2,), dtype=int32)
    """
    indices, _ = _suppress("non_max_suppression", boxes, scores, max_output_size, iou_threshold,
                           score_threshold, 0.0)
    return Tensor(indices)


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """``(selected_indices, selected_scores)``: `non_max_suppression`, or Soft-NMS when
    ``soft_nms_sigma > 0`` (overlapping boxes are kept with lowered scores; the scores returned are
    the lowered ones)."""
    sigma = float(np.asarray(soft_nms_sigma))
    if sigma < 0:
        raise InvalidArgumentError(f"soft_nms_sigma must be non-negative, got {sigma}")
    indices, kept = _suppress("non_max_suppression_with_scores", boxes, scores, max_output_size,
                              iou_threshold, score_threshold, sigma)
    return Tensor(indices), Tensor(kept.astype(np.asarray(as_input(scores)).dtype))


def _suppress(what, boxes, scores, max_output_size, iou_threshold, score_threshold, sigma):
    boxes, scores = _float_boxes(what, boxes, scores)
    size, threshold = _limits(max_output_size, iou_threshold, what)
    return _select(_iou_matrix(boxes), scores.astype(np.float64), size, threshold,
                   _in_dtype(score_threshold, scores), sigma)


def _in_dtype(score_threshold, scores):
    """The threshold rounded to the scores' dtype, as TF's kernel compares them."""
    return float(np.asarray(score_threshold).astype(scores.dtype))


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """`non_max_suppression` with the pairwise overlaps given (``[num_boxes, num_boxes]``, any
    similarity) instead of boxes: a box overlapping a kept one by more than ``overlap_threshold``
    is dropped."""
    what = "non_max_suppression_overlaps"
    overlaps, scores = _checked(what, (overlaps, scores), ("overlaps", "scores"))
    if overlaps.dtype.name != "float32" or scores.dtype.name != "float32":
        raise unsupported_dtype_error()(f"{what} needs float32 overlaps and scores. Received "
                                        f"{overlaps.dtype.name} and {scores.dtype.name}.")
    count = scores.shape[0] if scores.ndim == 1 else None
    if overlaps.ndim != 2 or tuple(overlaps.shape.as_list()) != (count, count):
        raise InvalidArgumentError(f"{what} needs overlaps of shape [num_boxes, num_boxes] and scores of "
                                   f"shape [num_boxes]. Received shapes {tuple(overlaps.shape.as_list())} "
                                   f"and {tuple(scores.shape.as_list())}.")
    size, threshold = _limits(max_output_size, overlap_threshold, what, "overlap_threshold")
    scores = np.asarray(scores)
    indices, _ = _select(np.asarray(overlaps, np.float64), scores.astype(np.float64), size, threshold,
                         _in_dtype(score_threshold, scores), 0.0)
    return Tensor(indices)

"""CTC prefix beam search, as TensorFlow's ``CTCBeamSearchDecoder`` kernel decodes.

Runs on the host over NumPy arrays, one sample at a time. Each beam is a node of a prefix trie
holding, in log space, the probability of its prefix ending in a blank and ending in its own
label (``old_*`` at the previous step, ``new_*`` at this one). Each step first advances the
beams already kept (a repeated label continues only from the parent's blank-ending paths), then
extends every kept beam, best first, by each non-blank label; a new beam enters only when there
is room or it beats the worst kept one strictly, which then leaves. The blank is the last class;
each step's inputs are normalized with a log-softmax, in float32 (float64 for float64 inputs, as
TF's kernel for each).
"""

import heapq

import numpy as np

from companion._core._errors import InvalidArgumentError

_LOG_ZERO = np.float32(-np.inf)
_ZERO = np.float32(0.0)


def beam_search(log_probs, lengths, beam_width, top_paths, merge_repeated=True):
    """The ``top_paths`` best label sequences of each sample and their log-probabilities.

    Args:
        log_probs: ``(batch, steps, classes)`` float array; the last class is the blank.
        lengths: ``(batch,)`` the steps of each sample that count (a negative one counts none).
        beam_width, top_paths: the beams kept per step, the sequences returned (``<= beam_width``).
        merge_repeated: whether a sequence's labels repeated next to each other are merged into one
            (``tf.compat.v1.nn.ctc_beam_search_decoder``'s default; ``tf.nn``'s, and Keras 3's
            ``ops.ctc_decode``, keep them).

    Returns:
        ``(decoded, scores)``: ``decoded`` a list of ``top_paths`` int64 arrays ``(batch, steps)``
        padded with -1, ``scores`` a float32 (float64 for float64 inputs) array ``(batch, top_paths)``.

    Raises:
        InvalidArgumentError: a sample ends with fewer beams than ``top_paths``.
    """
    batch, steps, classes = log_probs.shape
    decoded = [np.full((batch, steps), -1, np.int64) for _ in range(top_paths)]
    scores = np.zeros((batch, top_paths), np.float64 if log_probs.dtype == np.float64 else np.float32)
    for b in range(batch):
        beams = _decode_sample(log_probs[b, :max(int(lengths[b]), 0)], classes, beam_width)
        if len(beams) < top_paths:
            raise InvalidArgumentError("Less leaves in the beam search than requested. "
                                       f"[Op:CTCBeamSearchDecoder]: sample {b} keeps {len(beams)} beams, "
                                       f"top_paths={top_paths}.")
        for k, beam in enumerate(beams[:top_paths]):
            labels = beam.labels(merge_repeated)
            decoded[k][b, :len(labels)] = labels
            scores[b, k] = beam.new_total
    return decoded, scores


class _Beam:
    """A prefix: its last label, its parent and children, and its log-probabilities."""

    __slots__ = ("children", "label", "new_blank", "new_label", "new_total", "old_blank", "old_label",
                 "old_total", "parent")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.reset()
        self.old_blank = self.old_label = self.old_total = _LOG_ZERO

    def reset(self):
        self.new_blank = self.new_label = self.new_total = _LOG_ZERO

    def child(self, label):
        found = self.children.get(label)
        if found is None:
            found = self.children[label] = _Beam(self, label)
        return found

    def labels(self, merge_repeated):
        """The prefix's labels; with ``merge_repeated`` repeats next to each other merged."""
        labels, beam = [], self
        while beam.parent is not None:
            if not merge_repeated or not labels or beam.label != labels[-1]:
                labels.append(beam.label)
            beam = beam.parent
        return labels[::-1]


def _decode_sample(log_probs, classes, beam_width):
    """The beams kept after the last step, best first (ties: the first kept first)."""
    root = _Beam(None, -1)
    root.new_blank = root.new_total = _ZERO
    kept = [(_ZERO, 0, root)]
    blank = classes - 1
    for row in _log_softmax(log_probs):
        branches = [entry[2] for entry in sorted(kept, key=_best_first)]
        for beam in branches:
            beam.old_blank, beam.old_label, beam.old_total = beam.new_blank, beam.new_label, beam.new_total
        heap, order = [], 0  # the kept beams, worst first (ties: the first kept leaves first)
        labels_row, row = row[:blank], list(row)  # the non-blank inputs; all of them as float32 scalars
        for beam in branches:  # the kept beams go on
            parent = beam.parent
            if parent is not None:
                if parent.new_total != _LOG_ZERO:
                    before = parent.old_blank if beam.label == parent.label else parent.old_total
                    beam.new_label = _log_add(beam.new_label, before)
                beam.new_label += row[beam.label]
            beam.new_blank = beam.old_total + row[blank]
            beam.new_total = _log_add(beam.new_blank, beam.new_label)
            heap.append((beam.new_total, order, beam))
            order += 1
        heapq.heapify(heap)
        # the beams pushed out at this step: beam -> (the beam growing, the label it was adding then)
        dropped = {}
        for beam in branches:  # ... and grow
            if not _enters(beam.old_total, heap, beam_width):
                continue
            totals = labels_row + beam.old_total  # each child's probability (float32)
            if 0 <= beam.label < blank:  # a repeat continues only the paths that end in a blank
                totals[beam.label] = labels_row[beam.label] + beam.old_blank
            # the worst kept beam only gets better: a child not above it now never enters
            floor = heap[0][0] if len(heap) == beam_width else _LOG_ZERO
            for label in np.flatnonzero(totals > floor).tolist():
                child = beam.child(label)
                if child.new_total != _LOG_ZERO:
                    continue  # kept already
                total = totals[label]
                if not _enters(total, heap, beam_width):
                    _forget(child)
                    continue
                child.new_blank, child.new_label, child.new_total = _LOG_ZERO, total, total
                if len(heap) == beam_width:
                    out = heapq.heappop(heap)[2]
                    out.reset()
                    dropped[out] = (beam, label)
                heapq.heappush(heap, (total, order, child))
                order += 1
            if dropped:  # the children below the floor that TF tries (and forgets) too
                for child, (grower, label) in list(dropped.items()):
                    if child.parent is beam and child.new_total == _LOG_ZERO and (
                            grower is not beam or label < child.label):
                        _forget(child)
        kept = heap
    return [entry[2] for entry in sorted(kept, key=_best_first)]


def _forget(child):
    """TF's end for a child that was tried and did not enter: its last step's probabilities are
    forgotten too, so a kept beam pushed out before its own turn grows nothing at this step."""
    child.old_blank = child.old_label = child.old_total = _LOG_ZERO


def _best_first(entry):
    """Sorts ``(total, order, beam)`` entries best first; of equal ones, the first kept first."""
    return -entry[0], entry[1]


def _enters(total, heap, beam_width):
    return total > _LOG_ZERO and (len(heap) < beam_width or total > heap[0][0])


def _log_softmax(log_probs):
    """Each step's inputs as log-probabilities, in float32 as TF's kernel (whose rounding decides
    which of two nearly equal beams stays); float64 inputs stay float64 (TF's double kernel)."""
    if log_probs.dtype != np.float64:
        log_probs = log_probs.astype(np.float32)
    shifted = log_probs - log_probs.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _log_add(a, b):
    """log(exp(a) + exp(b)) of float32 scalars, in float32."""
    if a == _LOG_ZERO:
        return b
    if b == _LOG_ZERO:
        return a
    return a + np.log1p(np.exp(b - a)) if a > b else b + np.log1p(np.exp(a - b))

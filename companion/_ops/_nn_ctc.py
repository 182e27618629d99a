"""Connectionist temporal classification: TF's ``tf.nn.ctc_loss`` and ``tf.nn.ctc_greedy_decoder``
(the loss kernel is shared with ``keras.ops.ctc_loss``)."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._op import Op, op
from companion._core._tensor import Tensor
from companion._ops._array import transpose
from companion._ops._math import cast
from companion._ops._select import gather, where
from companion._staging._needs_values import NeedsValues
from companion.sparse._convert import to_dense as sparse_to_dense
from companion.sparse._sparse_tensor import SparseTensor


def _ctc_loss(target, output, target_length, output_length, blank):
    """Connectionist temporal classification loss, ``-log p(target | output)`` for each sample, by
    the forward (alpha) recursion in log space over the blank-interleaved target ``b l1 b l2 ... b``."""
    log_probs = jax.nn.log_softmax(output, axis=-1)
    batch, steps = output.shape[0], output.shape[1]
    extended = jnp.full((batch, 2 * target.shape[1] + 1), blank, target.dtype).at[:, 1::2].set(target)
    emissions = jnp.take_along_axis(log_probs, jnp.broadcast_to(extended[:, None, :], (
        batch, steps, extended.shape[1])), axis=-1)  # (batch, time, 2S + 1)
    never = jnp.asarray(-1e30, log_probs.dtype)
    two_back = jnp.pad(extended, ((0, 0), (2, 0)), constant_values=blank)[:, :-2]
    skip = (extended != blank) & (extended != two_back)  # may jump over a blank between distinct labels
    first = jnp.where(jnp.arange(extended.shape[1]) < 2, emissions[:, 0], never)

    def step(alpha, inputs):
        emission, t = inputs
        previous = jnp.pad(alpha, ((0, 0), (1, 0)), constant_values=never)[:, :-1]
        before = jnp.where(skip, jnp.pad(alpha, ((0, 0), (2, 0)), constant_values=never)[:, :-2], never)
        updated = jnp.logaddexp(jnp.logaddexp(alpha, previous), before) + emission
        return jnp.where((t < output_length)[:, None], updated, alpha), None

    times = jnp.arange(1, steps)
    alpha, _ = jax.lax.scan(step, first, (jnp.moveaxis(emissions[:, 1:], 1, 0), times))
    last = jnp.take_along_axis(alpha, jnp.stack([2 * target_length, 2 * target_length - 1], 1), axis=1)
    last = jnp.where(jnp.stack([target_length >= 0, target_length > 0], 1), last, never)
    return -jnp.logaddexp(last[:, 0], last[:, 1])


CTC_LOSS = Op("ctc_loss", _ctc_loss, static=("blank",))


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """The CTC loss of each sequence, ``-log p(labels | logits)`` (float32, ``[batch]``).

    ``logits``: unnormalized scores ``[frames, batch, classes]`` (``[batch, frames, classes]`` when
    ``logits_time_major`` is false); ``labels``: ``[batch, max_label_length]`` int labels (only the
    first ``label_length[i]`` of a row count) or a `SparseTensor` (then ``label_length`` is None);
    ``logit_length``: the frames of each sequence that count; ``blank_index``: the blank class
    (default 0; negative counts from the end).

    Example:
        >>> import companion as tf
        >>> logits = tf.zeros([2, 1, 3])  # two frames, uniform over blank, 1 and 2
        >>> print(tf.nn.ctc_loss(tf.constant([[1]]), logits, [1], [2]))
        companion.Tensor([1.0986123], shape=(1,), dtype=float32)
    """
    logits = as_input(logits)
    if logits.dtype.name != "float32":
        # TF's dense CTC path multiplies by float32 constants: other dtypes fail there
        raise InvalidArgumentError(f"ctc_loss needs float32 logits. Received {logits.dtype.name}: cast them "
                                   "first (companion.cast(logits, companion.float32)).")
    if logits.ndim != 3:
        raise InvalidArgumentError(f"ctc_loss needs logits of rank 3 ([frames, batch, classes]). Received "
                                   f"shape {tuple(logits.shape.as_list())}.")
    if logits_time_major:
        logits = transpose(logits, [1, 0, 2])
    classes = logits.shape[-1]
    if getattr(labels, "_is_sparse", False) or type(labels).__name__ == "SparseTensor":
        labels, label_length = _dense_labels(labels)
    elif label_length is None:
        raise ValueError("ctc_loss: label_length is required for dense labels (it may be None only for a "
                         "SparseTensor).")
    labels = cast(as_input(labels), "int32")
    blank = 0 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += classes
    if blank != 0:  # TF's dense path: the blank's column first, the labels below it moved up by one
        order = [blank] + [c for c in np.arange(classes) if c != blank]
        logits = gather(logits, order, axis=-1)
        labels = where(labels < blank, labels + 1, labels)
    lengths = cast(as_input(label_length), "int32"), cast(as_input(logit_length), "int32")
    return CTC_LOSS(labels, logits, *lengths, blank=0)


def _dense_labels(labels):
    """A SparseTensor of labels as ``(dense labels, label lengths)``."""
    indices = np.asarray(labels.indices)
    rows = int(np.asarray(labels.dense_shape)[0])
    lengths = np.bincount(indices[:, 0], minlength=rows) if indices.size else np.zeros(rows, np.int64)
    return sparse_to_dense(labels), Tensor(jnp.asarray(lengths.astype(np.int32)))


@op("ctc_greedy", static=("merge_repeated", "blank"))
def _greedy(inputs, lengths, merge_repeated, blank):
    steps = inputs.shape[0]
    best = jnp.argmax(inputs, axis=-1)  # [frames, batch]
    valid = jnp.arange(steps)[:, None] < lengths[None, :]
    keep = valid & (best != blank)
    if merge_repeated:
        keep = keep & jnp.concatenate([jnp.ones_like(best[:1], bool), best[1:] != best[:-1]], axis=0)
    score = 0.0 - jnp.sum(jnp.where(valid, jnp.max(inputs, axis=-1), 0), axis=0)[:, None]
    return best, keep, score


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """The likeliest class at each of the first ``sequence_length[i]`` frames of ``inputs``
    (``[frames, batch, classes]``), repeats merged (``merge_repeated``), blanks (default: the last
    class) dropped: ``([decoded], neg_sum_logits)``, ``decoded`` an int64 `SparseTensor`
    ``[batch, longest]`` and ``neg_sum_logits`` ``[batch, 1]`` minus the sum of each frame's best score.

    Example:
        >>> import companion as tf
        >>> inputs = tf.constant([[[0.1, 0.9]], [[0.8, 0.2]]])  # two frames: the blank (class 1), then 0
        >>> (decoded,), score = tf.nn.ctc_greedy_decoder(inputs, [2])
        >>> print(decoded.values)
        companion.Tensor([0], shape=(1,), dtype=int64)
    """
    inputs = as_input(inputs)
    if inputs.ndim != 3:
        raise InvalidArgumentError(f"inputs is not a 3-Tensor ([frames, batch, classes]). Received shape "
                                   f"{tuple(inputs.shape.as_list())}.")
    classes = inputs.shape[-1]
    blank = classes - 1 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += classes
    lengths = as_input(sequence_length)
    if lengths.is_traced or inputs.is_traced:
        raise NeedsValues("ctc_greedy_decoder: the decoded SparseTensor's size depends on the values, so it "
                          "runs eagerly (not inside a compiled function).")
    steps = np.asarray(lengths)
    if (steps > inputs.shape[0]).any():
        raise InvalidArgumentError(f"sequence_length(b) <= time: the lengths {steps.tolist()} must not "
                                   f"exceed the {inputs.shape[0]} frames.")
    best, keep, score = _greedy(inputs, cast(lengths, "int32"), merge_repeated=bool(merge_repeated),
                                blank=blank)
    best, keep = np.asarray(best).T, np.asarray(keep).T  # [batch, frames]
    rows, frames = np.nonzero(keep)
    columns = (np.cumsum(keep, axis=1) - 1)[rows, frames]
    width = int(keep.sum(axis=1).max()) if keep.size else 0
    decoded = SparseTensor(np.stack([rows, columns], axis=1).astype(np.int64),
                           best[rows, frames].astype(np.int64), np.asarray([keep.shape[0], width], np.int64))
    return [decoded], score

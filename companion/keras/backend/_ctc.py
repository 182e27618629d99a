"""Keras 3's legacy backend CTC functions (``tf.keras.backend.ctc_*``) over companion's CTC loss and
greedy decoder (`companion.keras.ops.ctc_loss` / `ctc_decode`) and a host beam search decoder.

Unlike `keras.ops`, they take softmax *probabilities* (their logarithm plus `epsilon` is what TF's
kernels see) and the blank is the *last* class, as in ``tf.compat.v1.nn.ctc_loss``.
"""

import numpy as np

from companion import cast, convert_to_tensor, expand_dims, gather_nd, reshape, shape, squeeze, where
from companion import range as _range
from companion._core._context import state
from companion._core._errors import FailedPreconditionError, InvalidArgumentError
from companion._core._tensor_spec import TensorSpec
from companion._ops._debugging import run_check
from companion._ops._math import log
from companion._ops._py_function import numpy_function
from companion.keras.backend._config import epsilon
from companion.keras.backend._ctc_beam_search import beam_search
from companion.sparse import SparseTensor

_IMPOSSIBLE = 1e29  # the alpha recursion's "log 0" is -1e30: a loss this large has no path (TF: inf)


def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first ``label_lengths[i]`` labels of each row ``i`` of ``labels`` as a `SparseTensor`.

    Args:
        labels: ``(batch, max_length)`` dense labels (padding after each row's length).
        label_lengths: ``(batch,)`` the number of real labels in each row.

    Example:
        >>> import companion as tf
        >>> sparse = tf.keras.backend.ctc_label_dense_to_sparse(tf.constant([[1, 2, 0], [3, 0, 0]]),
        ...                                                     tf.constant([2, 1]))
        >>> sparse.indices.numpy().tolist(), sparse.values.numpy().tolist()
        ([[0, 0], [0, 1], [1, 0]], [1, 2, 3])
    """
    labels = convert_to_tensor(labels)
    label_shape = shape(labels)
    lengths = cast(reshape(label_lengths, [-1]), "int32")
    mask = expand_dims(_range(label_shape[1]), 0) < expand_dims(lengths, 1)
    indices = cast(where(mask), "int64")
    return SparseTensor(indices, gather_nd(labels, indices), cast(label_shape, "int64"))


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """The CTC loss of each sample, ``(batch, 1)``, as TF's ``tf.keras.backend.ctc_batch_cost``.

    Args:
        y_true: ``(batch, max_label_length)`` integer labels in ``[0, classes - 1)``; entries past
            a row's ``label_length`` are ignored.
        y_pred: ``(batch, steps, classes)`` softmax probabilities; class ``classes - 1`` is the blank.
        input_length: ``(batch, 1)`` the steps of each sample that count.
        label_length: ``(batch, 1)`` the labels of each row that count.

    A label sequence no path of ``input_length`` steps can spell (repeats need a blank between
    them) costs ``inf``.

    Raises:
        InvalidArgumentError: a label length of 0, a label longer than its input, an input length
            past ``steps``, or a label that is not in ``[0, classes - 1)`` (TF's CTCLoss checks).

    Example:
        >>> import companion as tf
        >>> probs = tf.fill((1, 2, 3), 1 / 3)  # two steps, uniform over classes 0, 1 and the blank
        >>> cost = tf.keras.backend.ctc_batch_cost(tf.constant([[1]]), probs, [[2]], [[1]])
        >>> round(float(cost[0, 0]), 4)  # paths "1 blank", "blank 1", "1 1"
        1.0986
    """
    # deferred: keras.ops imports this package (the backend) at its top
    from companion.keras.ops import _nn

    y_pred = convert_to_tensor(y_pred)
    labels = cast(convert_to_tensor(y_true), "int32")
    label_length = cast(squeeze(label_length, axis=-1), "int32")
    input_length = cast(squeeze(input_length, axis=-1), "int32")
    steps, classes = y_pred.shape[1], y_pred.shape[-1]
    blank = classes - 1
    _check(_loss_check(steps, blank), labels, label_length, input_length)
    counted = expand_dims(_range(shape(labels)[1]), 0) < expand_dims(label_length, 1)
    labels = where(counted, labels, blank)  # the ignored padding may hold anything
    loss = _nn.ctc_loss(labels, log(y_pred + epsilon()), label_length, input_length, mask_index=blank)
    return expand_dims(where(loss >= _IMPOSSIBLE, np.inf, loss), 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """The best label sequences of each sample, as TF's ``tf.keras.backend.ctc_decode``.

    Greedy decoding takes the likeliest class at each of the first ``input_length[i]`` steps,
    merges repeats and drops blanks (the last class). Beam search (``greedy=False``) keeps the
    ``beam_width`` likeliest label prefixes at each step, summing over the paths that spell
    each, and returns the ``top_paths`` best, repeats next to each other merged, as TF's
    ``CTCBeamSearchDecoder`` (it runs on the host, not inside a compiled program).

    Args:
        y_pred: ``(batch, steps, classes)`` softmax probabilities.
        input_length: ``(batch,)`` the steps of each sample that count.
        greedy: decode greedily (True) or by beam search.
        beam_width, top_paths: for beam search: the prefixes kept per step and the sequences
            returned (``1 <= top_paths <= beam_width``).

    Returns:
        ``(decoded, log_prob)``: ``decoded`` a list (one entry, or ``top_paths`` for beam
        search) of ``(batch, steps)`` int64 labels padded with -1. Greedy: ``log_prob``
        ``(batch, 1)``, minus the sum of each counted step's best log-probability; beam search:
        ``(batch, top_paths)``, each sequence's log-probability.

    Raises:
        FailedPreconditionError: an input length past ``steps`` (TF's decoder check).
        InvalidArgumentError: ``beam_width`` or ``top_paths`` below 1, more ``top_paths`` than
            ``beam_width``, or a sample left with fewer beams than ``top_paths``.

    Example:
        >>> import companion as tf
        >>> probs = tf.constant([[[0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1]]])
        >>> decoded, log_prob = tf.keras.backend.ctc_decode(probs, [3])
        >>> decoded[0].numpy().tolist()  # 0, blank, 0: the blank keeps the two 0s apart
        [[0, 0, -1]]
        >>> decoded, log_prob = tf.keras.backend.ctc_decode(probs, [3], greedy=False, top_paths=2)
        >>> [d.numpy().tolist() for d in decoded], round(float(log_prob[0, 0]), 4)
        ([[[0, -1, -1]], [[1, 0, -1]]], -1.3783)
    """
    # deferred: keras.ops imports this package (the backend) at its top
    from companion.keras.ops import _nn

    y_pred = convert_to_tensor(y_pred)
    lengths = cast(convert_to_tensor(input_length), "int32")
    steps, blank = y_pred.shape[1], y_pred.shape[-1] - 1
    if not greedy:
        return _beam_search(y_pred, lengths, beam_width, top_paths)
    _check(_decode_check(steps, "CTCGreedyDecoder"), lengths)
    decoded, log_prob = _nn.ctc_decode(log(y_pred + epsilon()), lengths, mask_index=blank)
    return [cast(decoded[0], "int64")], log_prob


def _beam_search(y_pred, lengths, beam_width, top_paths):
    return beam_search_decode(log(y_pred + epsilon()), lengths, beam_width, top_paths, merge_repeated=True)


def beam_search_decode(log_probs, lengths, beam_width, top_paths, merge_repeated):
    """TF's ``CTCBeamSearchDecoder`` on ``log_probs`` (``(batch, steps, classes)``, the blank last,
    each step normalized by the decoder) on the host: ``(decoded, scores)``, ``decoded`` a list of
    ``top_paths`` ``(batch, steps)`` int64 tensors padded with -1, ``scores`` ``(batch, top_paths)``
    in the dtype of ``log_probs`` (float32 or float64)."""
    for name, value in (("beam_width", beam_width), ("top_paths", top_paths)):
        if not isinstance(value, (int, np.integer)) or value < 1:
            raise InvalidArgumentError(f"Value for attr '{name}' of {value} must be at least minimum 1 "
                                       "[Op:CTCBeamSearchDecoder]")
    if top_paths > beam_width:
        raise InvalidArgumentError("requested more paths than the beam width. [Op:CTCBeamSearchDecoder]: "
                                   f"top_paths={top_paths}, beam_width={beam_width}.")
    _check(_decode_check(log_probs.shape[1], "CTCBeamSearchDecoder"), lengths)
    batch, steps = log_probs.shape[0], log_probs.shape[1]

    def decode(log_probs, lengths):
        decoded, scores = beam_search(log_probs, lengths.reshape(-1), int(beam_width), int(top_paths),
                                      merge_repeated)
        return (*decoded, scores)

    specs = [TensorSpec((batch, steps), "int64")] * top_paths
    specs.append(TensorSpec((batch, top_paths), log_probs.dtype))
    *decoded, scores = numpy_function(decode, [log_probs, lengths], specs, stateful=False)
    return decoded, scores


def _check(check, *tensors):
    """``check`` on the values now, or when a compiled `function` runs (not under a JAX transform)."""
    if state.staging or not any(t.is_traced for t in tensors):
        run_check(check, *tensors)


def _loss_check(steps, blank):
    def check(labels, label_length, input_length):
        for b, (count, length) in enumerate(zip(label_length.tolist(), input_length.tolist())):
            if steps is not None and length > steps:
                raise InvalidArgumentError(f"sequence_length({b}) <= {steps} [Op:CTCLoss]: sample {b} counts "
                                           f"{length} steps but y_pred has {steps}.")
            if count == 0:
                raise InvalidArgumentError(f"Labels length is zero in batch {b} [Op:CTCLoss]")
            if count > length:
                raise InvalidArgumentError("Not enough time for target transition sequence (required: "
                                           f"{count}, available: {length}) [Op:CTCLoss]: sample {b}.")
            row = labels[b, :count]
            if ((row < 0) | (row >= blank)).any():
                raise InvalidArgumentError("Saw a non-null label (index >= num_classes - 1) [Op:CTCLoss]: "
                                           f"batch {b}, num_classes {blank + 1}, labels {row.tolist()}; the "
                                           "last class is the blank.")

    return check


def _decode_check(steps, op):
    def check(lengths):
        for b, length in enumerate(lengths.reshape(-1).tolist()):
            if steps is not None and length > steps:
                raise FailedPreconditionError(f"sequence_length({b}) <= {steps} [Op:{op}]: sample {b} counts "
                                              f"{length} steps but y_pred has {steps}.")

    return check

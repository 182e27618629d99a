"""Backend CTC helpers: dense labels as a `SparseTensor`; the CTC loss and decoders are not implemented."""

from companion import cast, convert_to_tensor, expand_dims, gather_nd, reshape, shape, where
from companion import range as _range
from companion.sparse import SparseTensor


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
    """Not implemented: companion has no CTC loss op (``tf.nn.ctc_loss``).

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError("keras.backend.ctc_batch_cost needs TensorFlow's CTC loss (tf.nn.ctc_loss), "
                              "which companion does not implement. Received: y_pred with shape "
                              f"{getattr(y_pred, 'shape', None)}")


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """Not implemented: companion has no CTC decoders (``tf.nn.ctc_greedy_decoder``, beam search).

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError("keras.backend.ctc_decode needs TensorFlow's CTC decoders "
                              "(tf.nn.ctc_greedy_decoder, ctc_beam_search_decoder), which companion does not "
                              f"implement. Received: y_pred with shape {getattr(y_pred, 'shape', None)}")

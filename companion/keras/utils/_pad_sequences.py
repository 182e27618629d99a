"""`pad_sequences`: a list of sequences of different lengths as one padded NumPy array."""

import numpy as np


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """Pads (and truncates) ``sequences`` to one length, ``maxlen`` or the longest one's.

    Args:
        sequences: a list of sequences (lists or arrays; their items may be arrays of one shape).
        maxlen: the length of every row; None for the longest sequence's.
        dtype: the result's dtype.
        padding: ``"pre"`` (values before each sequence) or ``"post"``.
        truncating: ``"pre"`` (drop a long sequence's first items) or ``"post"`` (its last ones).
        value: the padding value.

    Returns:
        An array of shape ``(len(sequences), maxlen) + item_shape``.

    Example:
        >>> import companion as tf
        >>> tf.keras.utils.pad_sequences([[1, 2], [3]], maxlen=3)
        array([[0, 1, 2],
               [0, 0, 3]], dtype=int32)
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError(f"pad_sequences: `sequences` must be a list of sequences. Received: {sequences!r}")
    for name, choice in (("padding", padding), ("truncating", truncating)):
        if choice not in ("pre", "post"):
            raise ValueError(f"pad_sequences: {name} must be 'pre' or 'post'. Received: {name}={choice!r}")
    rows = []
    for index, sequence in enumerate(sequences):
        if not hasattr(sequence, "__len__"):
            raise ValueError(f"pad_sequences: `sequences` must be a list of sequences; item {index} is "
                             f"{sequence!r}.")
        rows.append(np.asarray(sequence))
    item_shape = next((row.shape[1:] for row in rows if len(row)), ())
    length = max((len(row) for row in rows), default=0) if maxlen is None else int(maxlen)
    out = np.full((len(rows), length) + item_shape, value, dtype=dtype)
    for index, row in enumerate(rows):
        if not len(row) or not length:
            continue
        kept = row[-length:] if truncating == "pre" else row[:length]
        if kept.shape[1:] != item_shape:
            raise ValueError(f"pad_sequences: the items of sequence {index} have shape {kept.shape[1:]}, "
                             f"those before have {item_shape}. Every item must have one shape.")
        if padding == "post":
            out[index, :len(kept)] = kept
        else:
            out[index, -len(kept):] = kept
    return out

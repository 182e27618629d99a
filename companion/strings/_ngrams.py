"""`ngrams`: the runs of ``n`` adjacent strings along the last axis, joined (TF's ``tf.strings.ngrams``)."""

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion.ragged._ragged_tensor import RaggedTensor
from companion.strings._values import string_tensor, strings_of


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The ngrams of each row of ``data`` (its last axis), for each width in ``ngram_width``.

    With ``pad_values`` (one string, or a ``(left, right)`` pair), each row is padded with
    ``padding_width`` of them on each side (default and at most ``width - 1``). A row shorter
    than the width gives no ngram, or itself joined when ``preserve_short_sequences``. A
    `RaggedTensor` gives a `RaggedTensor`; a dense tensor of rank >= 1 a dense one.

    Example:
        >>> import companion as tf
        >>> print(tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2))
        companion.Tensor([b'a b' b'b c'], shape=(2,), dtype=string)
    """
    widths = [int(ngram_width)] if np.ndim(ngram_width) == 0 else [int(w) for w in ngram_width]
    if any(w <= 0 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    sep = _bytes(separator)
    if pad_values is None:
        pads = None
    elif isinstance(pad_values, (tuple, list)):
        if len(pad_values) != 2:
            raise ValueError(f"pad_values must be a string, or a tuple or list of 2 strings. Received: "
                             f"{pad_values!r}")
        pads = (_bytes(pad_values[0]), _bytes(pad_values[1]))
    else:
        pads = (_bytes(pad_values), _bytes(pad_values))
    if padding_width is not None and pads is None:
        raise ValueError("padding_width is set, but pad_values is not: give pad_values to pad the rows.")

    def row_ngrams(items):
        out = []
        for width in widths:
            pad = 0 if pads is None else min(width - 1 if padding_width is None or padding_width < 0
                                             else int(padding_width), width - 1)
            seq = [pads[0]] * pad + list(items) + [pads[1]] * pad if pads else list(items)
            if len(seq) >= width:
                out.extend(sep.join(seq[i:i + width]) for i in range(len(seq) - width + 1))
            elif preserve_short_sequences and items:
                out.append(sep.join(seq))
        return out

    if isinstance(data, RaggedTensor):
        return RaggedTensor.from_rows([_objects(row_ngrams(row)) for row in data.to_list()], _dtypes.string)
    tensor = as_input(data)
    if tensor.dtype != _dtypes.string:  # TF converts data to a string tensor: a ValueError
        raise ValueError(f"data: Tensor conversion requested dtype string for Tensor with dtype "
                         f"{tensor.dtype.name}: {tensor!s}")
    strings = strings_of(tensor, "strings.ngrams")
    if strings.ndim == 0:
        raise ValueError("Data must have rank>0")
    rows = strings.reshape(int(np.prod(strings.shape[:-1], dtype=np.int64)), strings.shape[-1])
    grams = [row_ngrams(list(row)) for row in rows]
    count = len(grams[0]) if grams else len(row_ngrams([b""] * strings.shape[-1]))
    out = np.empty((len(grams), count), dtype=object)
    for i, row in enumerate(grams):
        out[i, :] = row
    return string_tensor(out.reshape(strings.shape[:-1] + (count,)))


def _bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def _objects(items):
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out

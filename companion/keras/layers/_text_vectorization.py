"""`TextVectorization`: strings standardized, split into tokens and mapped to indices (Keras 3's layer).

Runs on the host like `StringLookup` (which it uses for the vocabulary): eager tensors directly,
traced ones through `numpy_function` (then ``output_sequence_length`` must be set for ``"int"``).
"""

import re

import numpy as np

from companion._core._convert import as_input, constant
from companion._core._tensor_spec import TensorSpec
from companion._ops._py_function import numpy_function
from companion.keras.layers._index_lookup import StringLookup, _batches
from companion.keras.layers._layer import Layer

_PUNCTUATION = re.compile(r'[!"#$%&()\*\+,\-\./:;<=>?@\[\\\]^_`{|}~\']')
_STANDARDIZE = {
    "lower_and_strip_punctuation": lambda text: _PUNCTUATION.sub("", text.lower()),
    "lower": str.lower,
    "strip_punctuation": lambda text: _PUNCTUATION.sub("", text),
    None: lambda text: text,
}
_SPLIT = {"whitespace": str.split, "character": list, None: lambda text: [text]}
_MODES = ("int", "multi_hot", "count")


class TextVectorization(Layer):
    """Turns strings into sequences of token indices (or multi-hot / count vectors).

    Args:
        max_tokens: the vocabulary's size limit, special tokens included (for `adapt`).
        standardize: ``"lower_and_strip_punctuation"`` (default), ``"lower"``,
            ``"strip_punctuation"`` or None.
        split: ``"whitespace"`` (default), ``"character"`` or None (the whole string is a token).
        output_mode: ``"int"`` (indices: 0 is padding, 1 unknown), ``"multi_hot"`` or ``"count"``.
        output_sequence_length: with ``"int"``, pad with 0 or truncate every sequence to this length
            (otherwise to the longest in the batch).
        vocabulary: the tokens, instead of `adapt`.

    Example:
        >>> import companion as tf
        >>> vectorize = tf.keras.layers.TextVectorization(output_sequence_length=4)
        >>> vectorize.adapt(["The cat sat.", "The dog!"])
        >>> vectorize(tf.constant(["the cat", "a dog"])).numpy()
        array([[2, 5, 0, 0],
               [1, 4, 0, 0]])
    """

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace",
                 ngrams=None, output_mode="int", output_sequence_length=None, pad_to_max_tokens=False,
                 vocabulary=None, **kwargs):
        for accepted in ("idf_weights", "sparse", "ragged", "encoding", "vocabulary_size"):
            kwargs.pop(accepted, None)  # Keras 3's config keys (dense outputs, UTF-8)
        super().__init__(**kwargs)
        if standardize not in _STANDARDIZE and not callable(standardize):
            raise ValueError(f"`standardize` must be one of {list(_STANDARDIZE)} or a callable. "
                             f"Received: standardize={standardize!r}")
        if split not in _SPLIT and not callable(split):
            raise ValueError(f"`split` must be one of {list(_SPLIT)} or a callable. "
                             f"Received: split={split!r}")
        if ngrams is not None:
            raise ValueError(f"TextVectorization(ngrams=...) is not supported by companion yet. Received: "
                             f"ngrams={ngrams!r}")
        if output_mode not in _MODES:
            raise ValueError(f"`output_mode` must be one of {list(_MODES)} (no 'tf_idf' in companion yet). "
                             f"Received: output_mode={output_mode!r}")
        self.max_tokens, self.standardize, self.split = max_tokens, standardize, split
        self.output_mode, self.output_sequence_length = output_mode, output_sequence_length
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self._table = StringLookup(max_tokens=max_tokens, mask_token="" if output_mode == "int" else None,
                                    output_mode=output_mode, pad_to_max_tokens=pad_to_max_tokens,
                                    vocabulary=vocabulary)

    def _tokens(self, text):
        text = text.decode("utf-8") if isinstance(text, bytes) else str(text)
        standardize = self.standardize if callable(self.standardize) else _STANDARDIZE[self.standardize]
        split = self.split if callable(self.split) else _SPLIT[self.split]
        return [token for token in split(standardize(text)) if token != ""]

    def adapt(self, data, batch_size=None, steps=None):
        """Builds the vocabulary from the tokens of ``data`` (strings, a tensor or a Dataset of them)."""
        tokens = [token for batch in _batches(data, steps) for text in np.asarray(batch).ravel().tolist()
                  for token in self._tokens(text)]
        self._table.adapt(np.array(tokens, dtype=object))

    def set_vocabulary(self, vocabulary):
        self._table.set_vocabulary(vocabulary)

    def get_vocabulary(self, include_special_tokens=True):
        return self._table.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._table.vocabulary_size()

    def call(self, inputs):
        inputs = as_input(inputs)
        if inputs.is_traced:
            if self.output_mode == "int" and self.output_sequence_length is None:
                raise ValueError("TextVectorization inside a compiled function needs output_sequence_length "
                                 "(the sequences' length must be known while tracing). Set it, or call the "
                                 "layer eagerly / in Dataset.map.")
            return numpy_function(self._vectorize, [inputs], TensorSpec(self._shape(inputs.shape), "int64"))
        return constant(self._vectorize(inputs.numpy()))

    def _shape(self, shape):
        batch = tuple(shape[:1]) if len(shape) else ()
        if self.output_mode == "int":
            return batch + (self.output_sequence_length,)
        return batch + (self._table._output_shape((1,))[-1],)

    def _vectorize(self, texts):
        texts = np.asarray(texts)
        rows = [self._tokens(text) for text in texts.ravel().tolist()]
        if self.output_mode != "int":
            encoded = [self._table._lookup(np.array([row or [""]], dtype=object).reshape(1, -1))
                       for row in rows]
            encoded = [e * 0 if not row else e for e, row in zip(encoded, rows)]
            return np.concatenate(encoded).reshape(texts.shape + encoded[0].shape[-1:])
        ids = [self._table._lookup(np.array(row, dtype=object)) if row else np.zeros(0, np.int64)
               for row in rows]
        length = self.output_sequence_length or max([len(i) for i in ids] + [0])
        out = np.zeros((len(ids), length), np.int64)
        for row, values in zip(out, ids):
            row[:min(length, len(values))] = values[:length]
        return out.reshape(texts.shape + (length,))

    def compute_output_shape(self, input_shape):
        return self._shape(tuple(input_shape))

    def get_config(self):
        return {**super().get_config(), "max_tokens": self.max_tokens, "standardize": self.standardize,
                "split": self.split, "ngrams": None, "output_mode": self.output_mode,
                "output_sequence_length": self.output_sequence_length,
                "pad_to_max_tokens": self.pad_to_max_tokens, "vocabulary": self._table._tokens or None,
                "vocabulary_size": self.vocabulary_size(), "idf_weights": None, "sparse": False,
                "ragged": False, "encoding": "utf-8"}

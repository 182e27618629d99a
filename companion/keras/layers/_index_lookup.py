"""`StringLookup` and `IntegerLookup`: tokens to vocabulary indices (and back), as Keras 3 maps them.

The lookup runs on the host (NumPy) on eager tensors, and through `numpy_function` when the input
is traced (inside `function` or a `Dataset.map`). Indices: the mask token (if any) is 0, then
``num_oov_indices`` out-of-vocabulary buckets (a token's bucket is TF's ``Fingerprint64 % n``),
then the vocabulary in order. `adapt` orders tokens by frequency (ties: the larger token first,
as Keras does).
"""

import collections

import numpy as np

from companion._core._convert import as_input, constant
from companion._core._tensor_spec import TensorSpec
from companion._ops._py_function import numpy_function
from companion.keras.layers._layer import Layer
from companion.strings._hash import to_hash_bucket_fast

_MODES = ("int", "one_hot", "multi_hot", "count")


class _IndexLookup(Layer):
    """What `StringLookup` and `IntegerLookup` share: the table, the output modes, `adapt`."""

    _default_oov = "[UNK]"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None,
                 vocabulary=None, invert=False, output_mode="int", pad_to_max_tokens=False, **kwargs):
        for accepted in ("vocabulary_dtype", "sparse", "encoding", "oov_method", "salt", "idf_weights",
                         "vocabulary_size"):  # Keras 3's config keys (UTF-8, farmhash, dense outputs)
            kwargs.pop(accepted, None)
        super().__init__(**kwargs)
        if output_mode not in _MODES:
            raise ValueError(f"`output_mode` must be one of {list(_MODES)} (companion has no 'tf_idf' yet). "
                             f"Received: output_mode={output_mode!r}")
        if invert and output_mode != "int":
            raise ValueError(f"invert=True works with output_mode='int' only. Received: {output_mode!r}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be >= 0. Received: {num_oov_indices!r}")
        self.max_tokens, self.num_oov_indices = max_tokens, int(num_oov_indices)
        self.mask_token = mask_token
        self.oov_token = self._default_oov if oov_token is None else oov_token
        self.invert, self.output_mode = bool(invert), output_mode
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self._tokens = []
        if vocabulary is not None:
            self.set_vocabulary(vocabulary)

    # -- the vocabulary --------------------------------------------------------------------------
    def set_vocabulary(self, vocabulary):
        """Replaces the vocabulary (a list, an array or a tensor of tokens, without the special ones)."""
        tokens = [self._token(t) for t in np.asarray(vocabulary.numpy() if hasattr(vocabulary, "numpy")
                                                     else vocabulary).ravel().tolist()]
        if len(set(tokens)) != len(tokens):
            repeated = sorted({t for t in tokens if tokens.count(t) > 1}, key=str)
            raise ValueError(f"The vocabulary has repeated tokens {repeated}. Each token must appear once.")
        if self.mask_token is not None and self.mask_token in tokens:
            raise ValueError(f"The vocabulary holds the mask token {self.mask_token!r}; leave it out (it "
                             "always gets index 0).")
        self._tokens = tokens

    def get_vocabulary(self, include_special_tokens=True):
        """The tokens in index order: mask token, OOV token(s), then the vocabulary (Keras 3's list)."""
        tokens = [self._numpy_token(t) for t in self._tokens]
        if not include_special_tokens:
            return tokens
        special = [] if self.mask_token is None else [self.mask_token]
        return special + [self.oov_token] * self.num_oov_indices + tokens

    def vocabulary_size(self):
        return len(self.get_vocabulary())

    def adapt(self, data, batch_size=None, steps=None):
        """Sets the vocabulary to the tokens of ``data`` by frequency (at most ``max_tokens`` entries)."""
        counts = collections.Counter()
        for batch in _batches(data, steps):
            counts.update(self._token(t) for t in np.asarray(batch).ravel().tolist())
        counts.pop(self.mask_token, None)
        ordered = [token for token, _ in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]
        if self.max_tokens is not None:
            ordered = ordered[:max(0, self.max_tokens - self.num_oov_indices - (self.mask_token is not None))]
        self._tokens = ordered

    # -- calling ----------------------------------------------------------------------------------
    def call(self, inputs):
        if not self._tokens and not self.invert and self.vocabulary_size() == 0:
            raise ValueError(f"{type(self).__name__} has no vocabulary: pass vocabulary=... or call adapt().")
        inputs = as_input(inputs)
        if inputs.is_traced:  # the table lookup runs on the host when the program runs
            spec = TensorSpec(self._output_shape(tuple(inputs.shape)),
                              self._token_dtype() if self.invert else "int64")
            return numpy_function(self._lookup, [inputs], spec)
        return constant(self._lookup(inputs.numpy()))

    def _output_shape(self, shape):
        depth = self.max_tokens if self.pad_to_max_tokens and self.max_tokens else self.vocabulary_size()
        if self.output_mode == "int":
            return shape
        if self.output_mode == "one_hot":
            return (shape[:-1] if len(shape) > 1 and shape[-1] == 1 else shape) + (depth,)
        return (depth,) if len(shape) == 1 else shape[:-1] + (depth,)

    def _lookup(self, values):
        values = np.asarray(values)
        if self.invert:
            vocabulary = self.get_vocabulary()
            flat = [vocabulary[i] if 0 <= i < len(vocabulary) else self.oov_token
                    for i in values.ravel().tolist()]
            dtype = object if self._token_dtype() == "string" else np.int64
            return np.array([self._encode(t) for t in flat], dtype=dtype).reshape(values.shape)
        start = (self.mask_token is not None) + self.num_oov_indices
        table = {token: start + i for i, token in enumerate(self._tokens)}
        tokens = [self._token(t) for t in values.ravel().tolist()]
        indices = np.array([self._index(t, table) for t in tokens], np.int64).reshape(values.shape)
        return self._encode_output(indices)

    def _index(self, token, table):
        if self.mask_token is not None and token == self.mask_token:
            return 0
        found = table.get(token)
        if found is not None:
            return found
        first = int(self.mask_token is not None)
        if self.num_oov_indices <= 1:
            return first if self.num_oov_indices else -1
        return first + self._oov_bucket(token)

    def _oov_bucket(self, token):
        """TF's bucket of an unknown token: ``Fingerprint64(str(token)) % num_oov_indices``."""
        return int(to_hash_bucket_fast(constant([str(token)]), self.num_oov_indices).numpy()[0])

    def _encode_output(self, indices):
        if self.output_mode == "int":
            return indices
        depth = self._output_shape(indices.shape)[-1]
        if self.output_mode == "one_hot":
            squeeze = indices.ndim > 1 and indices.shape[-1] == 1  # (batch, 1) ids: one per row
            flat = indices.reshape(indices.shape[:-1]) if squeeze else indices
            return np.eye(depth, dtype=np.int64)[flat]
        rows = indices[None] if indices.ndim == 1 else indices  # a 1-D input is one sample
        out = np.zeros((rows.shape[0], depth), np.int64)
        for row, ids in zip(out, rows):
            np.add.at(row, ids, 1)
        out = out if self.output_mode == "count" else np.minimum(out, 1)
        return out[0] if indices.ndim == 1 else out

    def compute_output_shape(self, input_shape):
        return self._output_shape(tuple(input_shape))

    def get_config(self):
        return {**super().get_config(), "max_tokens": self.max_tokens,
                "num_oov_indices": self.num_oov_indices, "mask_token": self.mask_token,
                "oov_token": self.oov_token, "vocabulary": self._tokens or None, "invert": self.invert,
                "output_mode": self.output_mode, "pad_to_max_tokens": self.pad_to_max_tokens,
                "vocabulary_size": self.vocabulary_size(), "encoding": "utf-8", "oov_method": "farmhash",
                "salt": None, "sparse": False, "idf_weights": None}


class StringLookup(_IndexLookup):
    """Maps strings to integer indices of a vocabulary (``invert=True``: indices back to strings).

    Args:
        vocabulary: the tokens (list, array or tensor); or call `adapt` on data.
        num_oov_indices: buckets for unknown tokens (default 1: index 0 is ``"[UNK]"``).
        mask_token: a token that maps to 0 (padding), e.g. ``""``; None (default): no mask.
        max_tokens: the vocabulary's size limit for `adapt` (special tokens included).
        output_mode: ``"int"`` (indices, int64), ``"one_hot"``, ``"multi_hot"`` or ``"count"``.
        invert: map indices back to tokens.

    Example:
        >>> import companion as tf
        >>> lookup = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"])
        >>> lookup(tf.constant([["a", "c"], ["d", "b"]])).numpy()
        array([[1, 3],
               [0, 2]])
    """

    def _token(self, value):
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)

    def _numpy_token(self, token):
        return np.str_(token)

    def _encode(self, token):
        return token.encode("utf-8") if isinstance(token, str) else token

    def _token_dtype(self):
        return "string"


class IntegerLookup(_IndexLookup):
    """Maps integers to indices of a vocabulary; unknown ones to the OOV index (the OOV token is -1).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138])(tf.constant([12, 1138, 42])).numpy()
        array([1, 3, 0])
    """

    _default_oov = -1

    def _token(self, value):
        return int(value)

    def _numpy_token(self, token):
        return np.int64(token)

    def _encode(self, token):
        return int(token)

    def _token_dtype(self):
        return "int64"


def _batches(data, steps):
    if hasattr(data, "_node") and hasattr(data, "element_spec"):  # a companion Dataset
        for index, element in enumerate(data.as_numpy_iterator()):
            if steps is not None and index >= steps:
                return
            yield element
        return
    yield np.asarray(data.numpy() if hasattr(data, "numpy") else data)

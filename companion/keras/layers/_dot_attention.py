"""`Attention` (Luong-style dot-product) and `AdditiveAttention` (Bahdanau-style): attention over
``[query, value]`` or ``[query, value, key]`` with Keras 3's masking and scores."""

import numpy as np

from companion._core._convert import as_input
from companion._ops import _math
from companion._ops._array import expand_dims
from companion._ops._creation import zeros_like
from companion._ops._linalg import matmul
from companion._ops._nn_activations import softmax
from companion._ops._nn_dropout import stream_dropout as dropout
from companion._ops._reduce import reduce_sum
from companion._ops._select import where
from companion.keras.layers._layer import Layer
from companion.keras.layers._training_value import select, training_value
from companion.keras.random import _ops as keras_random
from companion.keras.random._seed_generator import layer_seed_generator


class Attention(Layer):
    """Dot-product attention: ``softmax(query @ key^T [* scale]) @ value`` (``score_mode="dot"``) or
    ``concat_score_weight * sum(tanh([scale *] (query + key)))`` (``"concat"``).

    Called on ``[query, value]`` or ``[query, value, key]`` (key defaults to value), shapes
    ``(batch, Tq, dim)`` and ``(batch, Tv, dim)``; ``mask=[query_mask, value_mask]`` (or the inputs'
    Keras masks), ``use_causal_mask``, ``return_attention_scores``, ``training`` (dropout on the
    attention weights).

    Example:
        >>> import companion as tf
        >>> q, v = tf.ones([2, 3, 4]), tf.ones([2, 5, 4])
        >>> tf.keras.layers.Attention()([q, v]).shape
        TensorShape([2, 3, 4])
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of {'dot', 'concat'}. "
                             f"Received: score_mode={score_mode!r}")
        self.use_scale, self.score_mode, self.dropout, self.seed = use_scale, score_mode, dropout, seed
        self._seed_generator = layer_seed_generator(seed, enabled=dropout > 0)  # Keras 3's SeedGenerator
        self.supports_masking = True

    def build(self, input_shape):
        _validate(self, input_shape)
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones") if self.use_scale else None
        self.concat_score_weight = self.add_weight(name="concat_score_weight", shape=(), initializer="ones") \
            if self.score_mode == "concat" else None

    def _scores(self, query, key):
        if self.score_mode == "dot":
            scores = matmul(query, key, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        summed = expand_dims(query, -2) + expand_dims(key, -3)
        if self.scale is not None:
            summed = self.scale * summed
        return self.concat_score_weight * reduce_sum(_math.tanh(summed), axis=-1)

    def call(self, inputs, mask=None, training=None, return_attention_scores=False, use_causal_mask=False):
        _validate(self, inputs, mask)
        query, value = as_input(inputs[0]), as_input(inputs[1])
        key = as_input(inputs[2]) if len(inputs) > 2 else value
        query_mask = mask[0] if mask else None
        value_mask = mask[1] if mask else None
        scores = self._scores(query, key)
        scores_mask = _score_mask(scores, value_mask, use_causal_mask)
        if scores_mask is not None:
            padding = _math.logical_not(_math.cast(scores_mask, "bool"))
            if padding.ndim == 2:
                padding = expand_dims(padding, -2)
            big = 65504.0 if scores.dtype.name == "float16" else 1.0e9
            scores = where(padding, scores - big, scores)
        weights = softmax(scores, axis=-1)
        if self.dropout > 0:
            training = training_value(training)
            if training is not False and training is not None:
                weights = select(training, lambda: self._drop(weights), lambda: weights)
        output = matmul(weights, value)
        if query_mask is not None:
            output = where(expand_dims(_math.cast(query_mask, "bool"), -1), output, zeros_like(output))
        return (output, weights) if return_attention_scores else output

    def _drop(self, weights):
        if self._seed_generator is None:
            return dropout(weights, self.dropout)
        return keras_random.dropout(weights, self.dropout, seed=self._seed_generator)

    def compute_mask(self, inputs, mask=None):
        _validate(self, inputs, mask)
        return None if mask is None or mask[0] is None else as_input(mask[0])

    def compute_output_shape(self, input_shape):
        return (*tuple(input_shape[0])[:-1], tuple(input_shape[1])[-1])

    def get_config(self):
        return {**super().get_config(), "use_scale": self.use_scale, "score_mode": self.score_mode,
                "dropout": self.dropout, "seed": self.seed}


class AdditiveAttention(Attention):
    """Additive attention: scores ``sum(scale * tanh(query + key), axis=-1)`` with a learned
    ``scale`` vector (``use_scale=True``), then as `Attention`.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.AdditiveAttention()
        >>> layer([tf.ones([2, 3, 4]), tf.ones([2, 5, 4])]).shape, layer.scale.shape
        (TensorShape([2, 3, 4]), TensorShape([4]))
    """

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        _validate(self, input_shape)
        dim = tuple(input_shape[0])[-1]
        self.scale = self.add_weight(name="scale", shape=(dim,), initializer="glorot_uniform") \
            if self.use_scale else None

    def _scores(self, query, key):
        summed = _math.tanh(expand_dims(query, -2) + expand_dims(key, -3))
        return reduce_sum((self.scale if self.use_scale else 1.0) * summed, axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config


def _score_mask(scores, value_mask, use_causal_mask):
    if not use_causal_mask:
        return value_mask
    rows, cols = scores.shape[-2], scores.shape[-1]
    causal = as_input(np.tril(np.ones((rows, cols), bool))[None])  # a key is not after its query
    if value_mask is None:
        return causal
    return _math.logical_and(expand_dims(_math.cast(value_mask, "bool"), -2), causal)


def _validate(layer, inputs, mask=None):
    name = type(layer).__name__
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or "
                         f"[query, value, key]. Received: inputs={inputs}.")
    if not 2 <= len(inputs) <= 3:
        raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or "
                         f"[query, value, key]. Received length: {len(inputs)}.")
    if mask is not None and (not isinstance(mask, (list, tuple)) or not 2 <= len(mask) <= 3):
        raise ValueError(f"{name} layer mask must be a list of length 2 or 3, namely [query_mask, "
                         f"value_mask]. Received: mask={mask}.")

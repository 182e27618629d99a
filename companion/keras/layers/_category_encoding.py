"""`CategoryEncoding`: integer category ids as one-hot, multi-hot or count vectors (Keras 3)."""

import jax
import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._math import cast
from companion.keras.layers._layer import Layer

_MODES = ("one_hot", "multi_hot", "count")


@op("category_encoding", static=("depth", "mode"))
def _encode(ids, weights, depth, mode):
    ids = ids.astype(jnp.int32)
    if ids.ndim == 0:
        ids = ids[None]
    hot = jax.nn.one_hot(ids, depth, dtype=weights.dtype)  # ids outside [0, depth) give zero rows
    if mode == "one_hot":
        return hot[..., 0, :] if ids.ndim > 1 and ids.shape[-1] == 1 else hot
    if mode == "multi_hot":
        return jnp.max(hot, axis=-2)
    return jnp.sum(hot * weights[..., None], axis=-2)


class CategoryEncoding(Layer):
    """Encodes integer ids in ``[0, num_tokens)``: ``"one_hot"`` (one vector per id; a trailing axis of
    size 1 is replaced), ``"multi_hot"`` (1 for each id present in a sample, the default) or
    ``"count"`` (how often each id occurs, weighted by ``count_weights``). A 1-D input is one sample for
    multi-hot and count, as in Keras.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.CategoryEncoding(4)([[0, 1], [0, 0], [1, 2]]).numpy()
        array([[1., 1., 0., 0.],
               [1., 0., 0., 0.],
               [0., 1., 1., 0.]], dtype=float32)
    """

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        output_mode = "multi_hot" if output_mode == "binary" else output_mode
        if output_mode not in _MODES:
            raise ValueError(f"Unknown arg for output_mode: {output_mode!r}. Expected one of {_MODES}.")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if sparse:
            raise ValueError("CategoryEncoding(sparse=True) is not supported by companion (no sparse "
                             "tensors); use the dense output.")
        self.num_tokens, self.output_mode, self.sparse = int(num_tokens), output_mode, False
        self._autocast = False

    def call(self, inputs, count_weights=None):
        ids = as_input(inputs)
        if count_weights is not None and self.output_mode != "count":
            raise ValueError("`count_weights` is not used when `output_mode` is not `'count'`. Received "
                             f"`count_weights={count_weights}`.")
        weights = cast(as_input(1.0 if count_weights is None else count_weights), self._dtype)
        return _encode(ids, weights, depth=self.num_tokens, mode=self.output_mode)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        if not shape:
            return (self.num_tokens,)
        if self.output_mode == "one_hot" and shape[-1] != 1:
            return shape + (self.num_tokens,)
        if self.output_mode == "one_hot" and len(shape) == 1:
            return shape + (self.num_tokens,)
        return shape[:-1] + (self.num_tokens,)

    def get_config(self):
        return {**super().get_config(), "num_tokens": self.num_tokens, "output_mode": self.output_mode,
                "sparse": self.sparse}

"""`Embedding`: integer indices to rows of a trainable table."""

import warnings

from companion._ops._math import cast, not_equal
from companion._ops._nn_embedding import embedding_lookup
from companion.keras import constraints, initializers, regularizers
from companion.keras.layers._layer import Layer


class Embedding(Layer):
    """Maps each index in ``[0, input_dim)`` to a trainable vector of size ``output_dim``.

    With ``mask_zero=True`` index 0 is padding: the output carries the mask
    ``inputs != 0``, which masking-aware layers downstream (``GlobalAveragePooling1D``,
    the loss and metrics in ``fit``) use to leave the padded steps out.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Embedding(1000, 64)
        >>> layer(tf.constant([[1, 2, 3]])).shape
        TensorShape([1, 3, 64])
        >>> layer.count_params()
        64000
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None, embeddings_constraint=None,
                 mask_zero=False, input_length=None, quantization_config=None, **kwargs):
        if quantization_config is not None:
            raise NotImplementedError("companion's Embedding has no quantization: pass "
                                      f"quantization_config=None. Received: {quantization_config!r}")
        if input_length is not None:  # Keras 3 ignores it (the model stays unbuilt until called)
            warnings.warn("Argument `input_length` is deprecated. Just remove it.", stacklevel=1)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        for what, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"`{what}` must be a positive integer. Received: {what}={value} "
                                 f"(of type {type(value).__name__}).")  # Keras 3's text
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero
        self._autocast = False

    def build(self, input_shape):
        self.embeddings = self.add_weight(name="embeddings", shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)

    def call(self, inputs):
        if not inputs.dtype.is_integer:
            inputs = cast(inputs, "int32")
        return embedding_lookup(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        """``inputs != 0`` when ``mask_zero`` (index 0 is padding), else None."""
        if not self.mask_zero:
            return None
        return not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def get_config(self):
        config = {**super().get_config(), "input_dim": self.input_dim, "output_dim": self.output_dim,
                  "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
                  "embeddings_regularizer": regularizers.serialize(self.embeddings_regularizer),
                  "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                  "embeddings_constraint": constraints.serialize(self.embeddings_constraint),
                  "mask_zero": self.mask_zero}
        return {**config, "quantization_config": None}

"""1-D global pooling: `GlobalAveragePooling1D` (the mean over a sequence's steps, leaving masked steps
out) and `GlobalMaxPooling1D` (the maximum; masks ignored, as in Keras 3)."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._reduce import reduce_max
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer


@op("keras_global_average_pooling_1d", static=("axis", "keepdims"))
def _masked_mean(inputs, mask, axis, keepdims):
    weights = jnp.expand_dims(mask, 2 if axis == 1 else 1).astype(inputs.dtype)
    total = jnp.sum(jnp.where(weights > 0, inputs, 0), axis=axis, keepdims=keepdims)
    return total / jnp.sum(weights, axis=axis, keepdims=keepdims)


@op("keras_global_average_pooling_1d_plain", static=("axis", "keepdims"))
def _mean(inputs, axis, keepdims):
    return jnp.mean(inputs, axis=axis, keepdims=keepdims)


class _GlobalPooling1D(Layer):
    """Reduces the steps axis of ``(batch, steps, features)`` inputs (kept with size 1 if ``keepdims``)."""

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError("`data_format` must be 'channels_last' or 'channels_first'. Received: "
                             f"data_format={data_format!r}")
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=3)

    def _steps_axis(self):
        return 1 if self.data_format == "channels_last" else 2

    def compute_output_shape(self, input_shape):
        batch, first, second = tuple(input_shape)
        features = second if self.data_format == "channels_last" else first
        if self.keepdims:
            return (batch, 1, features) if self.data_format == "channels_last" else (batch, features, 1)
        return (batch, features)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalAveragePooling1D(_GlobalPooling1D):
    """The mean over the steps axis of ``(batch, steps, features)`` inputs.

    With a mask (from ``Embedding(mask_zero=True)`` or ``Masking``) the mean is over the
    unmasked steps only; the output carries no mask (Keras 3).

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 4, 2])
        >>> mask = tf.constant([[True, True, False, False]])
        >>> tf.keras.layers.GlobalAveragePooling1D()(x, mask=mask).numpy()
        array([[1., 2.]], dtype=float32)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(data_format, keepdims, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return _mean(inputs, axis=self._steps_axis(), keepdims=self.keepdims)
        return _masked_mean(inputs, as_input(mask), axis=self._steps_axis(), keepdims=self.keepdims)

    def compute_mask(self, inputs, mask=None):
        return None


class GlobalMaxPooling1D(_GlobalPooling1D):
    """The maximum over the steps of each feature of ``(batch, steps, features)`` (masks ignored, as in
    Keras 3).

    Example:
        >>> import companion as tf
        >>> x = tf.reshape(tf.range(8.0), [1, 4, 2])
        >>> tf.keras.layers.GlobalMaxPooling1D()(x).numpy()
        array([[6., 7.]], dtype=float32)
    """

    def call(self, inputs):
        return reduce_max(inputs, axis=self._steps_axis(), keepdims=self.keepdims)


GlobalAvgPool1D = GlobalAveragePooling1D
GlobalMaxPool1D = GlobalMaxPooling1D

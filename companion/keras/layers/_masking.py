"""`Masking`: marks the timesteps whose features all equal ``mask_value`` as padding."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion.keras.layers._keras_mask import set_keras_mask
from companion.keras.layers._layer import Layer


@op("keras_masking", static=("mask_value",))
def _masked(inputs, mask_value):
    keep = jnp.any(inputs != mask_value, axis=-1, keepdims=True)
    return jnp.where(keep, inputs, jnp.zeros_like(inputs)), keep[..., 0]


class Masking(Layer):
    """Masks each timestep of ``(batch, steps, features)`` inputs whose features all equal ``mask_value``.

    The output equals the input with masked timesteps set to 0, and carries the mask
    (True for kept timesteps) to the layers after it.

    Example:
        >>> import companion as tf
        >>> from companion.keras.layers._keras_mask import get_keras_mask
        >>> out = tf.keras.layers.Masking(mask_value=0.0)(tf.constant([[[1.0, 2.0], [0.0, 0.0]]]))
        >>> get_keras_mask(out).numpy()
        array([[ True, False]])
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def call(self, inputs):
        outputs, mask = _masked(as_input(inputs), mask_value=float(self.mask_value))
        set_keras_mask(outputs, mask)
        return outputs

    def compute_mask(self, inputs, mask=None):
        return _masked(as_input(inputs), mask_value=float(self.mask_value))[1]

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}

"""`Dropout`: random zeroing with rescaling while training, the identity otherwise."""

import numbers

from companion._ops._nn_dropout import dropout
from companion.keras.layers._layer import Layer


class Dropout(Layer):
    """Sets inputs to 0 with probability ``rate`` and scales the rest by ``1 / (1 - rate)``.

    Only when called with ``training=True`` (``fit`` does); otherwise the identity. ``seed``
    follows TensorFlow's seed rules (with `companion.random.set_seed`), and ``noise_shape``
    (``None`` entries take the input's size) lets elements share one draw.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Dropout(0.5, seed=1)
        >>> layer(tf.ones([4])).numpy()
        array([1., 1., 1., 1.], dtype=float32)
        >>> sorted(set(layer(tf.ones([1000]), training=True).numpy().tolist()))
        [0.0, 2.0]
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras 3
        if isinstance(rate, bool) or not isinstance(rate, numbers.Real) or not 0 <= rate <= 1:
            raise ValueError(f"`rate` must be a number between 0 and 1. Received: rate={rate!r}")
        self.rate = float(rate)
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)
        self.seed = seed

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        if self.rate == 1:
            return inputs * 0
        return dropout(inputs, self.rate, noise_shape=self._noise_shape(inputs), seed=self.seed)

    def _noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        return [d if d is not None else s for d, s in zip(self.noise_shape, inputs.shape.as_list())]

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "noise_shape": self.noise_shape,
                "seed": self.seed}

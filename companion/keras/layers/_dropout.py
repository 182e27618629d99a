"""`Dropout`: random zeroing with rescaling while training, the identity otherwise."""

import numbers

from companion._ops._nn_dropout import stream_dropout as dropout
from companion.keras.layers._layer import Layer
from companion.keras.layers._training_value import select, training_value
from companion.keras.random import _ops as keras_random
from companion.keras.random._seed_generator import layer_seed_generator


class Dropout(Layer):
    """Sets inputs to 0 with probability ``rate`` and scales the rest by ``1 / (1 - rate)``.

    Only when called with ``training=True`` (``fit`` does); otherwise the identity. Inside a
    `companion.function`, ``training`` may be a scalar bool tensor: both results are computed
    and the tensor picks one when the function runs. Without
    ``seed`` the masks follow `companion.random.set_seed`; with one (or after
    `keras.utils.set_random_seed`, a default seed drawn as Keras draws it), the layer owns a Keras
    `SeedGenerator` and its masks are TensorFlow's for that seed. ``noise_shape`` (``None``
    entries take the input's size) lets elements share one draw.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Dropout(0.5, seed=1)
        >>> layer(tf.ones([4])).numpy()
        array([1., 1., 1., 1.], dtype=float32)
        >>> sorted(set(layer(tf.ones([1000]), training=True).numpy().tolist()))
        [0.0, 2.0]
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras 3
        if isinstance(rate, bool) or not isinstance(rate, numbers.Real) or not 0 <= rate <= 1:
            raise ValueError(f"`rate` must be a number between 0 and 1. Received: rate={rate!r}")
        self.rate = float(rate)
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)
        self.seed = seed
        # Keras 3: the layer owns a SeedGenerator (not a weight): two layers with the same seed drop
        # the same units, each call steps the generator, the global seed plays no part
        self._seed_generator = layer_seed_generator(seed, enabled=self.rate > 0)

    def call(self, inputs, training=None):
        training = training_value(training)
        if training is False or self.rate == 0:
            return inputs
        return select(training, lambda: self._drop(inputs), lambda: inputs)

    def _drop(self, inputs):
        if self.rate == 1:
            return inputs * 0
        noise_shape = self._noise_shape(inputs)
        if self._seed_generator is None:
            return dropout(inputs, self.rate, noise_shape=noise_shape)
        return keras_random.dropout(inputs, self.rate, noise_shape, seed=self._seed_generator)

    def _noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        return [d if d is not None else s for d, s in zip(self.noise_shape, inputs.shape.as_list())]

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed,
                "noise_shape": self.noise_shape}

"""Regularizing noise while training: `GaussianNoise` (additive) and `GaussianDropout`
(multiplicative); both are the identity at inference."""

import math
import numbers

from companion._core._convert import as_input
from companion.keras.layers._layer import Layer
from companion.keras.layers._training_value import select, training_value
from companion.keras.random import _ops as keras_random
from companion.keras.random._seed_generator import layer_seed_generator
from companion.random._ops import stream_normal as normal


class _Noise(Layer):
    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config
    def __init__(self, amount, what, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        if isinstance(amount, bool) or not isinstance(amount, numbers.Real) or amount < 0:
            raise ValueError(f"{type(self).__name__}: {what} must be a number >= 0. Received: "
                             f"{what}={amount!r}")
        self.seed = seed
        self._generator = layer_seed_generator(seed, enabled=amount > 0)  # Keras 3's SeedGenerator

    def _normal(self, inputs, mean, stddev):
        shape = inputs.shape.as_list()
        if self._generator is None:
            return normal(shape, mean=mean, stddev=stddev, dtype=inputs.dtype)
        return keras_random.normal(shape, mean=mean, stddev=stddev, dtype=inputs.dtype, seed=self._generator)

    def call(self, inputs, training=None):
        inputs = as_input(inputs)
        training = training_value(training)
        if training is False or self._inactive():
            return inputs
        return select(training, lambda: self._noisy(inputs), lambda: inputs)

    def compute_output_shape(self, input_shape):
        return input_shape


class GaussianNoise(_Noise):
    """Adds zero-mean Gaussian noise of standard deviation ``stddev`` while training.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.GaussianNoise(0.1, seed=1)
        >>> bool((layer(tf.ones([3]), training=True) != 1.0).numpy().all())
        True
    """

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(stddev, "stddev", seed=seed, **kwargs)
        self.stddev = float(stddev)

    def _inactive(self):
        return self.stddev == 0

    def _noisy(self, inputs):
        return inputs + self._normal(inputs, 0.0, self.stddev)

    def get_config(self):
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(_Noise):
    """Multiplies inputs by Gaussian noise of mean 1 and variance ``rate / (1 - rate)`` while
    training.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.GaussianDropout(0.2)(tf.ones([3])).numpy()
        array([1., 1., 1.], dtype=float32)
    """

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, "rate", seed=seed, **kwargs)
        if rate >= 1:
            raise ValueError(f"GaussianDropout: rate must be in [0, 1). Received: rate={rate!r}")
        self.rate = float(rate)

    def _inactive(self):
        return self.rate == 0

    def _noisy(self, inputs):
        return inputs * self._normal(inputs, 1.0, math.sqrt(self.rate / (1.0 - self.rate)))

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class Identity(Layer):
    """Returns its inputs unchanged (a placeholder in a model's layer list).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Identity()(tf.constant([1.0, 2.0])).numpy()
        array([1., 2.], dtype=float32)
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

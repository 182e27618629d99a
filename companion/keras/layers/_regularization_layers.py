"""`ActivityRegularization` (adds an L1/L2 penalty on its input to the losses) and `AlphaDropout`
(dropout that keeps a SELU network's mean and variance)."""


from companion._core._convert import as_input
from companion._ops._math import cast
from companion.keras import regularizers
from companion.keras.layers._dropout import Dropout
from companion.keras.layers._layer import Layer
from companion.keras.random import _ops as keras_random
from companion.random._ops import stream_uniform as uniform

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


class ActivityRegularization(Layer):
    """Passes its input through and adds ``l1 * sum(|x|) + l2 * sum(x**2)`` (divided by the batch
    size, as Keras 3) to the layer's ``losses``.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.ActivityRegularization(l1=0.5)
        >>> _ = layer(tf.constant([[1.0, -2.0], [3.0, 0.0]]))
        >>> float(layer.losses[0])  # 0.5 * (1 + 2 + 3) / 2 examples
        1.5
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        return {**config, "l1": self.l1, "l2": self.l2}


class AlphaDropout(Dropout):
    """Dropout for SELU networks: a dropped input becomes SELU's negative saturation value, then an
    affine map restores the mean and variance (Klambauer et al., 2017). Only while training;
    arguments as `Dropout`.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.AlphaDropout(0.2)(tf.ones([3])).numpy()
        array([1., 1., 1.], dtype=float32)
    """

    def _drop(self, inputs):
        inputs = as_input(inputs)
        shape = self._noise_shape(inputs) or inputs.shape.as_list()
        draws = uniform(shape) if self._seed_generator is None else \
            keras_random.uniform(shape, seed=self._seed_generator)
        kept = cast(draws >= self.rate, inputs.dtype)
        alpha_p = -_SELU_ALPHA * _SELU_SCALE
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (inputs * kept + alpha_p * (1 - kept)) + b

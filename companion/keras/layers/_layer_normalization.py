"""`LayerNormalization`: normalize each example over its feature axes, then scale and shift."""

from companion._ops._array import reshape
from companion._ops._nn_normalization import batch_normalization, moments
from companion.keras.layers import _gamma_beta as gamma_beta
from companion.keras.layers._batch_normalization import (
    check_axis_argument,
    check_number,
    normalized_axes,
)
from companion.keras.layers._float32_compute import computes_in_float32
from companion.keras.layers._layer import Layer


class LayerNormalization(Layer):
    """Normalizes each example to zero mean and unit variance over ``axis``, independently.

    The output is ``gamma * (inputs - mean) / sqrt(variance + epsilon) + beta``, where the
    mean and (biased) variance are taken over the ``axis`` dimensions of each example, and
    ``gamma`` and ``beta`` have the shape of those dimensions. Training and inference
    compute the same thing.

    Args:
        axis: the axis or axes to normalize, an int or a list of ints (default: the last).
        epsilon: a small positive number added to the variance.
        center, scale: whether to learn the offset ``beta`` and the factor ``gamma``.
        beta_initializer, gamma_initializer: initializers (names, instances or callables).
        beta_regularizer, gamma_regularizer: penalties added to `losses`.
        beta_constraint, gamma_constraint: projections applied after each optimizer update.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.LayerNormalization(epsilon=0.0)
        >>> layer(tf.constant([[1.0, 3.0], [2.0, 6.0]])).numpy()
        array([[-1.,  1.],
               [-1.,  1.]], dtype=float32)
        >>> [w.shape for w in layer.weights]
        [TensorShape([2]), TensorShape([2])]
    """

    def __init__(self, axis=-1, epsilon=0.001, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, rms_scaling=False, **kwargs):
        if rms_scaling:
            raise NotImplementedError("companion's LayerNormalization has no rms_scaling=True (use "
                                      "RMSNormalization). Received: rms_scaling=True")
        super().__init__(**kwargs)
        self._autocast = False  # Keras 3: float inputs are not cast down first (see call)
        self.supports_masking = True  # passes the input's mask on, as Keras 3
        self.axis = check_axis_argument(axis)
        self.epsilon = check_number(epsilon, "epsilon", 0.0, None)
        gamma_beta.configure(self, center, scale, beta_initializer, gamma_initializer, beta_regularizer,
                             gamma_regularizer, beta_constraint, gamma_constraint)

    def build(self, input_shape):
        self._axes = normalized_axes(self.axis, input_shape, self.name)
        dims = tuple(input_shape)
        shape = tuple(dims[a] for a in self._axes)
        self._broadcast_shape = [dims[i] if i in self._axes else 1 for i in range(len(dims))]
        gamma_beta.add_gamma_and_beta(self, shape)

    @computes_in_float32
    def call(self, inputs):
        mean, variance = moments(inputs, self._axes, keepdims=True)
        return batch_normalization(inputs, mean, variance, self._broadcast(self.beta),
                                   self._broadcast(self.gamma), self.epsilon)

    def _broadcast(self, weight):
        return None if weight is None else reshape(weight, self._broadcast_shape)

    def get_config(self):
        gamma_beta_config = gamma_beta.config(self)
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon,
                "center": gamma_beta_config.pop("center"), "scale": gamma_beta_config.pop("scale"),
                "rms_scaling": False, **gamma_beta_config}

"""Activation layers with parameters: `ReLU`, `LeakyReLU`, `ELU`, `PReLU` and `Softmax`."""

import numpy as np

from companion._core._convert import as_input
from companion._ops import _nn_activations as _nn
from companion._ops._math import cast, exp
from companion._ops._reduce import reduce_logsumexp
from companion.keras import constraints, initializers, regularizers
from companion.keras.activations import _activations
from companion.keras.layers._layer import Layer


class _ElementwiseActivation(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # the mask passes through, as Keras 3

    def compute_output_shape(self, input_shape):
        return input_shape


class ReLU(_ElementwiseActivation):
    """``relu`` as a layer: ``max(x, 0)``, capped at ``max_value``, with ``negative_slope`` below
    ``threshold``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.ReLU(max_value=2.0)(tf.constant([-1.0, 1.0, 3.0])).numpy()
        array([0., 1., 2.], dtype=float32)
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        for name, value in (("max_value", max_value), ("negative_slope", negative_slope),
                            ("threshold", threshold)):
            if (value is None and name != "max_value") or (value is not None and value < 0):
                raise ValueError(f"ReLU: {name} must be a number >= 0{' or None' * (name == 'max_value')}. "
                                 f"Received: {name}={value!r}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        return _activations.relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                                 threshold=self.threshold)

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


class LeakyReLU(_ElementwiseActivation):
    """``x`` for ``x > 0``, else ``negative_slope * x`` (Keras's default slope 0.3; ``alpha`` is the
    older name of the argument).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.LeakyReLU()(tf.constant([-1.0, 2.0])).numpy()
        array([-0.3,  2. ], dtype=float32)
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, negative_slope=0.3, **kwargs):
        negative_slope = kwargs.pop("alpha", negative_slope)
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"LeakyReLU: negative_slope must be a number >= 0. Received: "
                             f"negative_slope={negative_slope!r}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        return _activations.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ELU(_ElementwiseActivation):
    """``x`` for ``x > 0``, else ``alpha * (exp(x) - 1)``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.ELU(alpha=2.0)(tf.constant([0.0, 1.0])).numpy()
        array([0., 1.], dtype=float32)
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return _activations.elu(inputs, alpha=self.alpha)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class ThresholdedReLU(_ElementwiseActivation):
    """``x`` where ``x > theta``, else 0 (Keras's legacy layer).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.ThresholdedReLU(theta=1.0)(tf.constant([0.5, 1.0, 2.0])).numpy()
        array([0., 0., 2.], dtype=float32)
    """

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None or theta < 0:
            raise ValueError(f"ThresholdedReLU: theta must be a number >= 0. Received: theta={theta!r}")
        self.theta = float(theta)

    def call(self, inputs):
        inputs = as_input(inputs)
        return inputs * cast(inputs > self.theta, inputs.dtype)

    def get_config(self):
        return {**super().get_config(), "theta": self.theta}


class PReLU(_ElementwiseActivation):
    """A leaky ReLU whose negative slope ``alpha`` is learned, one per entry of an example (or shared
    along ``shared_axes``, e.g. ``[1, 2]`` for one slope per channel of images).

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.5))
        >>> layer(tf.constant([[-2.0, 3.0]])).numpy()
        array([[-1.,  3.]], dtype=float32)
    """

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        self.shared_axes = None if shared_axes is None else list(
            np.atleast_1d(shared_axes).astype(int).tolist())

    def build(self, input_shape):
        shape = list(tuple(input_shape)[1:])
        for axis in self.shared_axes or []:
            shape[axis - 1] = 1
        if None in shape:
            raise ValueError(f"PReLU layer {self.name!r}: every non-batch axis needs a known size or "
                             f"must be in shared_axes. Received: input_shape={tuple(input_shape)}")
        self.alpha = self.add_weight(name="alpha", shape=tuple(shape), initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)

    def call(self, inputs):
        inputs = as_input(inputs)
        return _nn.relu(inputs) - cast(self.alpha, inputs.dtype) * _nn.relu(-inputs)

    def get_config(self):
        return {**super().get_config(), "alpha_initializer": initializers.serialize(self.alpha_initializer),
                "alpha_regularizer": regularizers.serialize(self.alpha_regularizer),
                "alpha_constraint": constraints.serialize(self.alpha_constraint),
                "shared_axes": self.shared_axes}


class Softmax(Layer):
    """``softmax`` along ``axis`` as a layer; masked entries (a Keras mask, or ``mask=``) get
    probability 0.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Softmax()(tf.constant([[1.0, 1.0]])).numpy()
        array([[0.5, 0.5]], dtype=float32)
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.axis = axis

    def call(self, inputs, mask=None):
        inputs = as_input(inputs)
        if mask is not None:  # Keras 3: a large negative number where the mask is False
            large_negative = -1e9 if inputs.dtype.size >= 4 else -3e4
            inputs = inputs + (1.0 - cast(mask, inputs.dtype)) * large_negative
        if isinstance(self.axis, (list, tuple)):  # over several axes at once
            return exp(inputs - reduce_logsumexp(inputs, axis=list(self.axis), keepdims=True))
        return _nn.softmax(inputs, axis=self.axis)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


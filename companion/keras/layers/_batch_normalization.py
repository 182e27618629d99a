"""`BatchNormalization`: normalize with batch statistics while training, moving ones otherwise."""

import numbers

from companion._ops._array import reshape
from companion._ops._nn_normalization import batch_normalization, moments
from companion._ops._select import where
from companion.keras import constraints, initializers, regularizers
from companion.keras.layers._float32_compute import computes_in_float32
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer
from companion.keras.layers._training_value import select, training_value


class BatchNormalization(Layer):
    """Normalizes each feature along ``axis`` to zero mean and unit variance, then scales it.

    The output is ``gamma * (inputs - mean) / sqrt(variance + epsilon) + beta``. Called
    with ``training=True`` it uses the mean and (biased) variance of the batch over all
    axes but ``axis``, and updates the non-trainable moving statistics::

        moving_mean = moving_mean * momentum + batch_mean * (1 - momentum)
        moving_variance = moving_variance * momentum + batch_variance * (1 - momentum)

    Otherwise (``training`` False or None) it uses the moving statistics. As in TF2 Keras, a
    frozen layer (``trainable=False``) always runs in inference mode, even with
    ``training=True``. Inside a `companion.function`, ``training`` may be a scalar bool tensor:
    the tensor picks batch or moving statistics (and whether they move) when the function runs.
    The weights are ``gamma``, ``beta`` (trainable, when ``scale`` and
    ``center``), ``moving_mean`` and ``moving_variance``.

    Args:
        axis: the feature axis, an int or a list of ints (default: the last axis).
        momentum: the moving statistics' decay, a number in [0, 1].
        epsilon: a small positive number added to the variance.
        center, scale: whether to learn the offset ``beta`` and the factor ``gamma``.
        beta_initializer, gamma_initializer, moving_mean_initializer,
            moving_variance_initializer: initializers (names, instances or callables).
        beta_regularizer, gamma_regularizer: penalties added to `losses`.
        beta_constraint, gamma_constraint: projections applied after each optimizer update.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.BatchNormalization(momentum=0.5, epsilon=0.0)
        >>> layer(tf.constant([[1.0], [3.0]]), training=True).numpy()
        array([[-1.],
               [ 1.]], dtype=float32)
        >>> layer.moving_mean.numpy(), layer.moving_variance.numpy()
        (array([1.], dtype=float32), array([1.], dtype=float32))
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=0.001, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", moving_mean_initializer="zeros",
                 moving_variance_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, synchronized=False, renorm=False,
                 renorm_clipping=None, renorm_momentum=0.99, **kwargs):
        for what, value in (("synchronized", synchronized), ("renorm", renorm)):
            if value:
                raise NotImplementedError(f"companion's BatchNormalization has no {what}=True. "
                                          f"Received: {what}={value!r}")
        self.renorm_clipping, self.renorm_momentum = renorm_clipping, renorm_momentum
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras 3
        self.axis = check_axis_argument(axis)
        self.momentum = check_number(momentum, "momentum", 0.0, 1.0)
        self.epsilon = check_number(epsilon, "epsilon", 0.0, None)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        axes = normalized_axes(self.axis, input_shape, self.name)
        dims = {a: tuple(input_shape)[a] for a in axes}
        rank = len(input_shape)
        self._reduction_axes = [i for i in range(rank) if i not in dims]
        self._broadcast_shape = [dims.get(i, 1) for i in range(rank)]
        # one axis: vectors of its size; several: the input's rank, size 1 on the reduced axes
        shape = tuple(dims.values()) if len(axes) == 1 else tuple(self._broadcast_shape)
        self.gamma = self.add_weight(name="gamma", shape=shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight(name="beta", shape=shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer,
                                    constraint=self.beta_constraint) if self.center else None
        self.moving_mean = self.add_weight(name="moving_mean", shape=shape, trainable=False,
                                           initializer=self.moving_mean_initializer)
        self.moving_variance = self.add_weight(name="moving_variance", shape=shape, trainable=False,
                                               initializer=self.moving_variance_initializer)
        self.input_spec = InputSpec(ndim=len(input_shape), axes=dims)

    @computes_in_float32
    def call(self, inputs, training=None):
        training = training_value(training) if self.trainable else False
        if training is False:
            return self._normalize(inputs, self._broadcast(self.moving_mean),
                                   self._broadcast(self.moving_variance))
        mean, variance = moments(inputs, self._reduction_axes, keepdims=True)
        self._update_moving_stats(mean, variance, training)
        return select(training, lambda: self._normalize(inputs, mean, variance),
                      lambda: self._normalize(inputs, self._broadcast(self.moving_mean),
                                              self._broadcast(self.moving_variance)))

    def _normalize(self, inputs, mean, variance):
        return batch_normalization(inputs, mean, variance, self._broadcast(self.beta),
                                   self._broadcast(self.gamma), self.epsilon)

    def _update_moving_stats(self, mean, variance, training):
        for moving, batch in ((self.moving_mean, mean), (self.moving_variance, variance)):
            batch = reshape(batch, moving.shape.as_list())
            updated = moving * self.momentum + batch * (1.0 - self.momentum)
            moving.assign(updated if training is True else where(training, updated, moving.value()))

    def _broadcast(self, weight):
        return None if weight is None else reshape(weight, self._broadcast_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum,
                "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
                "moving_variance_initializer": initializers.serialize(self.moving_variance_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint),
                "synchronized": False, "renorm": False, "renorm_clipping": self.renorm_clipping,
                "renorm_momentum": self.renorm_momentum}


# -- argument checks shared with LayerNormalization -------------------------------------------

def check_axis_argument(axis):
    """``axis`` as given (an int), or as a list (from a list or tuple of ints); TypeError otherwise."""
    if isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
        return int(axis)
    if isinstance(axis, (list, tuple)) and axis and all(
            isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in axis):
        return [int(a) for a in axis]
    raise TypeError(f"`axis` must be an int or a non-empty list of ints. Received: axis={axis!r}")


def normalized_axes(axis, input_shape, layer_name):
    """``axis`` as sorted non-negative ints of known size for inputs of ``input_shape``."""
    dims = tuple(input_shape)
    rank = len(dims)
    axes = [axis] if isinstance(axis, int) else list(axis)
    if not all(-rank <= a < rank for a in axes):
        raise ValueError(f"Invalid axis for layer {layer_name!r}: expected axes in [{-rank}, {rank}) "
                         f"for inputs of rank {rank}. Received: axis={axis}, input_shape={input_shape}")
    axes = sorted(a % rank for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"Duplicate axis for layer {layer_name!r}. Received: axis={axis}")
    if any(dims[a] is None for a in axes):
        raise ValueError(f"Layer {layer_name!r} needs the size of the normalized axes to be known. "
                         f"Received: axis={axis}, input_shape={input_shape}")
    return axes


def check_number(value, what, low, high):
    """``value`` as a float if it is a real number in ``[low, high]`` (``high`` None: no bound)."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and value >= low
    if not ok or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"a number >= {low}"
        raise ValueError(f"`{what}` must be {bounds}. Received: {what}={value!r}")
    return float(value)

"""`GroupNormalization`: the channels split into ``groups``, each normalized over its channels and
the spatial axes of each example (Wu & He, 2018), Keras 3's arithmetic."""

from companion._core._convert import as_input
from companion._ops import _math
from companion._ops._array import reshape
from companion._ops._math import cast
from companion._ops._nn_normalization import moments
from companion.keras.layers import _gamma_beta as gamma_beta
from companion.keras.layers._float32_compute import computes_in_float32
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer


class GroupNormalization(Layer):
    """Normalizes each group of ``channels / groups`` channels of an example to mean 0 and variance 1
    (over those channels and the other non-batch axes), then scales and shifts per channel (``gamma``,
    ``beta``). ``groups=-1`` normalizes each channel alone (instance normalization); ``groups=1``
    normalizes over all channels (layer normalization of images).

    Example:
        >>> import companion as tf
        >>> out = tf.keras.layers.GroupNormalization(groups=2)(tf.reshape(tf.range(16.0), [2, 2, 4]))
        >>> round(float(tf.reduce_mean(out[0, :, :2])), 6)
        0.0
    """

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self._autocast = False  # Keras 3: float inputs are not cast down first (see call)
        self.supports_masking = True
        self.groups, self.axis, self.epsilon = int(groups), int(axis), float(epsilon)
        gamma_beta.configure(self, center, scale, beta_initializer, gamma_initializer, beta_regularizer,
                             gamma_regularizer, beta_constraint, gamma_constraint)

    def build(self, input_shape):
        dims = tuple(input_shape)
        dim = dims[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the "
                             f"layer received an input with shape {dims}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels "
                             f"({dim}).")
        if dim % self.groups:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels "
                             f"({dim}).")
        self.input_spec = InputSpec(ndim=len(dims), axes={self.axis: dim})
        gamma_beta.add_gamma_and_beta(self, (dim,))

    @computes_in_float32
    def call(self, inputs):
        inputs = as_input(inputs)
        shape = list(inputs.shape)
        rank = len(shape)
        axis = self.axis % rank
        grouped_shape = [-1] + shape[1:]
        grouped_shape[axis] = shape[axis] // self.groups
        grouped_shape.insert(axis, self.groups)
        grouped = reshape(inputs, grouped_shape)
        wide = grouped.dtype.is_floating and grouped.dtype.size >= 4
        compute = grouped if wide else cast(grouped, "float32")
        axes = [a for a in range(1, rank + 1) if a != axis]
        mean, variance = moments(compute, axes=axes, keepdims=True)
        inv = _math.rsqrt(variance + self.epsilon)
        broadcast = [1] * rank
        broadcast[axis] = shape[axis] // self.groups
        broadcast.insert(axis, self.groups)
        if self.scale:
            inv = inv * cast(reshape(self.gamma, broadcast), compute.dtype)
        shift = -mean * inv
        if self.center:
            shift = shift + cast(reshape(self.beta, broadcast), compute.dtype)
        out = cast(compute * inv + shift, inputs.dtype)
        return reshape(out, [-1] + shape[1:])

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "groups": self.groups, "axis": self.axis, "epsilon": self.epsilon,
                **gamma_beta.config(self)}

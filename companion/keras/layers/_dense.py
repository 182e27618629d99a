"""`Dense`: ``activation(inputs @ kernel + bias)``."""

from companion._ops._linalg import tensordot
from companion.keras import activations
from companion.keras._keras_logits import set_keras_logits
from companion.keras.layers import _kernel_bias as kernel_bias
from companion.keras.layers._dense_op import FUSED_ACTIVATIONS, dense_with_logits
from companion.keras.layers._dense_op import dense as dense_op
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer


class Dense(Layer):
    """A densely connected layer: ``activation(inputs @ kernel + bias)`` on the last axis.

    Args:
        units: the size of the last axis of the output, a positive integer.
        activation: an activation name or function (None: linear).
        use_bias: whether to add a bias vector.
        kernel_initializer, bias_initializer: initializers (names, instances or callables).
        kernel_regularizer, bias_regularizer: penalties added to `losses`.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Dense(3, kernel_initializer="ones")
        >>> layer(tf.ones([2, 4])).numpy()
        array([[4., 4., 4.],
               [4., 4., 4.]], dtype=float32)
        >>> layer.count_params()
        15
    """

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 quantization_config=None, **kwargs):
        if quantization_config is not None:
            raise NotImplementedError("companion's Dense has no quantization: pass quantization_config=None. "
                                      f"Received: quantization_config={quantization_config!r}")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras 3
        if isinstance(units, bool) or not isinstance(units, int) or units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")  # Keras 3's text (a NumPy integer is refused there too)
        self.units = units
        kernel_bias.configure(self, activation, use_bias, kernel_initializer, bias_initializer,
                              kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        last_dim = input_shape[-1]  # None: the kernel's shape is unknown, which its weight refuses
        kernel_bias.add_kernel_and_bias(self, (last_dim, self.units), self.units)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})

    def call(self, inputs):
        fused = self._fused_activation()
        if fused is not None and inputs.dtype == self.kernel.dtype:
            params = (inputs, self.kernel) + ((self.bias,) if self.use_bias else ())
            if fused in ("sigmoid", "softmax"):  # the output keeps its logits (Keras 3), still one op
                logits, outputs = dense_with_logits(*params, activation=fused)
                return set_keras_logits(outputs, logits)
            return dense_op(*params, activation=fused)
        outputs = tensordot(inputs, self.kernel, [[inputs.ndim - 1], [0]])
        if self.use_bias:
            outputs = outputs + self.bias
        return self.activation(outputs)

    def _fused_activation(self):
        """The activation's name when the fused op has it (a built-in one), else None."""
        name = getattr(self.activation, "__name__", None)
        if name in FUSED_ACTIVATIONS and self.activation is activations.get(name):
            return name
        return None

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)[:-1] + (self.units,)

    def get_config(self):
        config = {**super().get_config(), "units": self.units, **kernel_bias.config(self)}
        if self.activity_regularizer is None:  # Keras 3's Dense names it only in the base config
            del config["activity_regularizer"]
        return {**config, "quantization_config": None}

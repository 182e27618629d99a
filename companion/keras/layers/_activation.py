"""`Activation`: applies an activation function as a layer."""

from companion.keras import activations
from companion.keras.layers._layer import Layer


class Activation(Layer):
    """Applies ``activation`` (a name such as ``'relu'``, or a function) to its inputs.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Activation("relu")(tf.constant([-1.0, 2.0])).numpy()
        array([0., 2.], dtype=float32)
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras 3
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), "activation": activations.serialize(self.activation)}

"""`Lambda`: an arbitrary function of the inputs as a layer."""

from companion.keras.layers._layer import Layer


class Lambda(Layer):
    """Calls ``function(inputs, **arguments)``; weights are not tracked (write a Layer for those).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Lambda(lambda x: x * 2)(tf.constant([1.0, 2.0])).numpy()
        array([2., 4.], dtype=float32)
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Lambda needs a callable. Received: function={function!r}")
        self.function = function
        self.output_shape = output_shape
        self.mask = mask
        self.arguments = dict(arguments or {})

    def call(self, inputs, training=None):
        return self.function(inputs, **self.arguments)

    def compute_output_shape(self, input_shape):
        if self.output_shape is None:
            return input_shape
        shape = self.output_shape(input_shape) if callable(self.output_shape) else self.output_shape
        return (tuple(input_shape)[0],) + tuple(shape)

    def get_config(self):
        return {**super().get_config(), "function": self.function, "output_shape": self.output_shape,
                "arguments": self.arguments}

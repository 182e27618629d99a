"""`Flatten`: one feature axis per example."""

import math

from companion._ops._array import reshape
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer


class Flatten(Layer):
    """Reshapes ``(batch, d1, d2, ...)`` inputs to ``(batch, d1 * d2 * ...)``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Flatten()(tf.ones([2, 3, 4])).shape
        TensorShape([2, 12])
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError("Flatten supports data_format='channels_last' only. Received: "
                             f"data_format={data_format!r}")
        self.data_format = data_format
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        shape = inputs.shape.as_list()
        return reshape(inputs, [-1 if shape[0] is None else shape[0], math.prod(shape[1:])])

    def compute_output_shape(self, input_shape):
        dims = tuple(input_shape)
        rest = None if None in dims[1:] else math.prod(dims[1:])
        return (dims[0], rest)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format or "channels_last"}

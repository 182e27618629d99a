"""`Reshape`: a new shape for each example."""

import math

from companion._ops._array import reshape
from companion.keras.layers._layer import Layer


class Reshape(Layer):
    """Reshapes each example to ``target_shape`` (the batch axis is kept; one entry may be -1).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Reshape((3, -1))(tf.ones([2, 12])).shape
        TensorShape([2, 3, 4])
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        target_shape = tuple(target_shape)
        if (any(not isinstance(d, int) or d == 0 or d < -1 for d in target_shape)
                or target_shape.count(-1) > 1):
            raise ValueError("`target_shape` must be a tuple of positive integers with at most one -1."
                             f" Received: target_shape={target_shape}")
        self.target_shape = target_shape
        self.built = True  # as Keras 3: even a subclass's `build` is never called by a call

    def call(self, inputs):
        batch = inputs.shape[0]
        return reshape(inputs, (-1 if batch is None else batch,) + self._example_shape(inputs.shape))

    def compute_output_shape(self, input_shape):
        return (tuple(input_shape)[0],) + self._example_shape(input_shape)

    def _example_shape(self, input_shape):
        dims = tuple(input_shape)[1:]
        if None in dims:
            return self.target_shape
        size, known = math.prod(dims), math.prod(d for d in self.target_shape if d != -1)
        if (-1 in self.target_shape and size % known) or (-1 not in self.target_shape and size != known):
            raise ValueError(f"Reshape layer {self.name!r}: the total size of each example must be "
                             f"unchanged. Received: input_shape={tuple(input_shape)}, "
                             f"target_shape={self.target_shape}")
        return tuple(size // known if d == -1 else d for d in self.target_shape)

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}

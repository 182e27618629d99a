"""`Reshape`: a new shape for each example."""

import math

import numpy as np

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
        _validate_target_shape(target_shape)
        self.target_shape = target_shape
        self.built = True  # as Keras 3: even a subclass's `build` is never called by a call

    def call(self, inputs):
        batch = inputs.shape[0]
        example = tuple(-1 if d is None else d for d in self._example_shape(inputs.shape))
        return reshape(inputs, (-1 if batch is None else batch,) + example)

    def compute_output_shape(self, input_shape):
        return (tuple(input_shape)[0],) + self._example_shape(input_shape)

    def _example_shape(self, input_shape):
        """Keras 3's ``compute_reshape_output_shape`` on the example shape: ``target_shape`` with
        its -1 resolved (None while an input axis is unknown)."""
        dims, target = tuple(input_shape)[1:], self.target_shape
        if None in dims:
            return tuple(None if d == -1 else d for d in target)
        size = math.prod(dims)
        if -1 not in target:
            if size != math.prod(target):
                raise ValueError("The total size of the tensor must be unchanged. Received: "
                                 f"input_shape={dims}, target_shape={target}")
            return target
        known = math.prod(d for d in target if d != -1)
        if known == 0 or size % known:
            raise ValueError("The total size of the tensor must be unchanged, however, the input size "
                             "cannot by divided by the specified dimensions in target_shape. Received: "
                             f"input_shape={dims}, target_shape={target}")
        return tuple(size // known if d == -1 else d for d in target)

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}


def _validate_target_shape(target_shape):
    """Keras 3's checks of ``target_shape``: integers, each -1 or more, at most one -1."""
    for d in target_shape:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"Each dimension in `target_shape` must be an integer. Received: "
                            f"target_shape={target_shape}.")
        if d < -1:
            raise ValueError("Each dimension in `target_shape` must be a non-negative integer, or `-1` "
                             f"for a single unknown dimension. Received: target_shape={target_shape}.")
    if target_shape.count(-1) > 1:
        raise ValueError("There must be at most one unknown dimension (-1) in `target_shape`. "
                         f"Received: target_shape={target_shape}.")

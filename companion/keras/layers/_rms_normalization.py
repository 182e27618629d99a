"""`RMSNormalization`: each example divided by its root mean square over ``axis``, then scaled (Keras 3)."""

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._ops import _math, _reduce
from companion.keras.layers._float32_compute import computes_in_float32
from companion.keras.layers._layer import Layer


class AxisOutOfBoundsError(ValueError, IndexError):
    """An ``axis`` outside the input's dimensions (an `IndexError` in Keras, a `ValueError` too here)."""


class RMSNormalization(Layer):
    """``x * rsqrt(mean(square(x), axis) + epsilon) * scale``, as Keras 3's ``RMSNormalization``.

    ``scale`` is a trainable weight (initialized to ones) with the shape of the ``axis``
    dimensions. Half-precision inputs are normalized in float32.

    Args:
        axis: the axis or axes to normalize over, an int or a list of ints (default: the last).
        epsilon: a small number added to the mean square to avoid dividing by zero.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.RMSNormalization(epsilon=0.0)
        >>> layer(tf.constant([[3.0, 4.0], [1.0, -1.0]])).numpy().round(4)
        array([[ 0.8485,  1.1314],
               [ 1.    , -1.    ]], dtype=float32)
        >>> layer.scale.shape
        TensorShape([2])
    """

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            if not all(isinstance(a, int) and not isinstance(a, bool) for a in axis):
                raise TypeError("RMSNormalization: `axis` must be an int or a list of ints. "
                                f"Received: axis={axis!r}")
        elif not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError("RMSNormalization: `axis` must be an int or a list of ints. "
                            f"Received: axis={axis!r}")
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)):
            raise TypeError(f"RMSNormalization: `epsilon` must be a number. Received: epsilon={epsilon!r}")
        self.axis = axis
        self.epsilon = epsilon

    def _check_axes(self, input_shape):
        dims = tuple(input_shape)
        axes = list(self.axis) if isinstance(self.axis, (list, tuple)) else [self.axis]
        for axis in axes:
            if axis >= len(dims) or axis < -len(dims):
                raise AxisOutOfBoundsError(
                    f"RMSNormalization: axis {axis} is out of bounds for input shape {dims}; use an axis in "
                    f"[-{len(dims)}, {len(dims) - 1}]. Received: axis={self.axis}")
        return dims, axes

    def build(self, input_shape):
        dims, axes = self._check_axes(input_shape)
        if isinstance(self.axis, (list, tuple)):  # Keras 3 keeps the axes as a sorted list once built
            self.axis = sorted(self.axis)
            shape = tuple(dims[a] for a in self.axis)
        else:
            shape = (dims[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")

    @computes_in_float32
    def call(self, inputs):
        x = as_input(inputs)
        dtype = x.dtype
        if not dtype.is_floating or dtype in (_dtypes.float16, _dtypes.bfloat16):
            x = _math.cast(x, _dtypes.float32)  # Keras: computes in at least float32, casts back after
        mean_square = _reduce.reduce_mean(_math.square(x), axis=self.axis, keepdims=True)
        outputs = x * _math.rsqrt(mean_square + _math.cast(self.epsilon, x.dtype))
        outputs = outputs * _math.cast(self.scale, x.dtype)
        return outputs if not dtype.is_floating or dtype == x.dtype else _math.cast(outputs, dtype)

    def compute_output_shape(self, input_shape):
        self._check_axes(input_shape)
        return input_shape

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}

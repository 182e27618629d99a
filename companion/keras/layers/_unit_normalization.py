"""`UnitNormalization`: each example scaled to unit L2 norm along ``axis`` (Keras 3's formula)."""

from companion._core._convert import as_input
from companion._ops import _math, _reduce
from companion.keras.layers._layer import Layer


class UnitNormalization(Layer):
    """``x * min(rsqrt(sum(x**2, axis)), 1e12)``: unit L2 norm along ``axis`` (an int or a list).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.UnitNormalization()(tf.constant([[3.0, 4.0]])).numpy()
        array([[0.6, 0.8]], dtype=float32)
    """

    _built_at_init = True  # Keras 3 builds it in __init__: its config has no build_config

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int) and not isinstance(axis, bool):
            self.axis = axis
        else:
            raise TypeError(f"UnitNormalization: `axis` must be an int or a list of ints. Received: "
                            f"axis={axis!r}")

    def call(self, inputs):
        x = as_input(inputs)
        squares = _reduce.reduce_sum(_math.square(x), axis=self.axis, keepdims=True)
        bound = _math.cast(1e12, x.dtype)  # 1 / epsilon; inf in float16, as in Keras (no overflow warning)
        return x * _math.minimum(_math.rsqrt(squares), bound)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}

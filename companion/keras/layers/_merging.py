"""`Add` and `Concatenate` (and their functional forms): layers that merge a list of inputs."""

from companion._ops._array import concat
from companion.keras.layers._layer import Layer


class _Merge(Layer):
    """Base of layers called on a list of at least two tensors."""

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) < 2:
            raise ValueError(f"The {type(self).__name__} layer {self.name!r} should be called on a "
                             f"list of at least 2 inputs. Received: input_shape={input_shape}")
        self._check_shapes([tuple(s) for s in input_shape])

    def _check_shapes(self, shapes):
        pass


class Add(_Merge):
    """The element-wise sum of a list of tensors of the same shape.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Add()([tf.ones([2]), tf.ones([2])]).numpy()
        array([2., 2.], dtype=float32)
    """

    def _check_shapes(self, shapes):
        if any(len(s) != len(shapes[0]) or any(a != b and 1 not in (a, b) and None not in (a, b)
                                               for a, b in zip(s, shapes[0])) for s in shapes):
            raise ValueError(f"Add layer {self.name!r}: inputs must have the same shape (up to "
                             f"broadcasting size-1 axes). Received shapes: {shapes}")

    def compute_output_shape(self, input_shape):
        shapes = [tuple(s) for s in input_shape]
        return tuple(max(dims, key=lambda d: -1 if d is None else d) for dims in zip(*shapes))

    def call(self, inputs):
        total = inputs[0]
        for x in inputs[1:]:
            total = total + x
        return total


class Concatenate(_Merge):
    """Joins a list of tensors along ``axis``; the other axes must match.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Concatenate()([tf.ones([2, 1]), tf.zeros([2, 2])]).shape
        TensorShape([2, 3])
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _check_shapes(self, shapes):
        rank = len(shapes[0])
        axis = self.axis % rank if -rank <= self.axis < rank else None
        if axis is None or any(len(s) != rank for s in shapes) or any(
                len({s[i] for s in shapes} - {None}) > 1 for i in range(rank) if i != axis):
            raise ValueError(f"Concatenate layer {self.name!r} requires inputs with matching shapes "
                             f"except for the concatenation axis {self.axis}. Received: "
                             f"input_shape={shapes}")

    def compute_output_shape(self, input_shape):
        shapes = [list(s) for s in input_shape]
        out, sizes = shapes[0], [s[self.axis] for s in shapes]
        out[self.axis] = None if None in sizes else sum(sizes)
        return tuple(out)

    def call(self, inputs):
        return concat(list(inputs), axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


def add(inputs, **kwargs):
    """``Add(**kwargs)(inputs)``."""
    return Add(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """``Concatenate(axis, **kwargs)(inputs)``."""
    return Concatenate(axis=axis, **kwargs)(inputs)

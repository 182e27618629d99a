"""Layers that merge a list of inputs: element-wise (`Add`, `Subtract`, `Multiply`, `Average`,
`Maximum`, `Minimum`) or by joining them (`Concatenate`), with their functional forms."""

import functools

import jax

from companion._core._op import op
from companion._ops._array import concat
from companion._ops._math import maximum as _maximum
from companion._ops._math import minimum as _minimum
from companion._ops._nn_normalization import l2_normalize
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


class _Elementwise(_Merge):
    """A merge of same-shaped tensors (size-1 axes broadcast) by ``_combine`` applied pairwise."""

    @staticmethod
    def _combine(a, b):
        raise NotImplementedError

    def _check_shapes(self, shapes):
        if any(len(s) != len(shapes[0]) or any(a != b and 1 not in (a, b) and None not in (a, b)
                                               for a, b in zip(s, shapes[0])) for s in shapes):
            raise ValueError(f"{type(self).__name__} layer {self.name!r}: inputs must have the same "
                             f"shape (up to broadcasting size-1 axes). Received shapes: {shapes}")

    def compute_output_shape(self, input_shape):
        shapes = [tuple(s) for s in input_shape]
        return tuple(max(dims, key=lambda d: -1 if d is None else d) for dims in zip(*shapes))

    def call(self, inputs):
        return functools.reduce(self._combine, inputs)


class Add(_Elementwise):
    """The element-wise sum of a list of tensors of the same shape.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Add()([tf.ones([2]), tf.ones([2])]).numpy()
        array([2., 2.], dtype=float32)
    """

    @staticmethod
    def _combine(a, b):
        return a + b


class Subtract(_Elementwise):
    """The first of exactly two tensors minus the second.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Subtract()([tf.ones([2]), tf.constant([0.5, 2.0])]).numpy()
        array([ 0.5, -1. ], dtype=float32)
    """

    @staticmethod
    def _combine(a, b):
        return a - b

    def _check_shapes(self, shapes):
        if len(shapes) != 2:
            raise ValueError(f"Subtract layer {self.name!r} should be called on exactly 2 inputs. "
                             f"Received {len(shapes)} inputs of shapes {shapes}.")
        super()._check_shapes(shapes)


class Multiply(_Elementwise):
    """The element-wise product of a list of tensors of the same shape.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Multiply()([tf.constant([2.0, 3.0]), tf.constant([4.0, 5.0])]).numpy()
        array([ 8., 15.], dtype=float32)
    """

    @staticmethod
    def _combine(a, b):
        return a * b


class Maximum(_Elementwise):
    """The element-wise maximum of a list of tensors of the same shape.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Maximum()([tf.constant([1.0, 5.0]), tf.constant([3.0, 2.0])]).numpy()
        array([3., 5.], dtype=float32)
    """

    _combine = staticmethod(_maximum)


class Minimum(_Elementwise):
    """The element-wise minimum of a list of tensors of the same shape.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Minimum()([tf.constant([1.0, 5.0]), tf.constant([3.0, 2.0])]).numpy()
        array([1., 2.], dtype=float32)
    """

    _combine = staticmethod(_minimum)


class Average(_Elementwise):
    """The element-wise mean of a list of tensors of the same shape.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Average()([tf.constant([1.0, 5.0]), tf.constant([3.0, 2.0])]).numpy()
        array([2. , 3.5], dtype=float32)
    """

    @staticmethod
    def _combine(a, b):
        return a + b

    def call(self, inputs):
        return super().call(inputs) / len(inputs)


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


class Dot(_Merge):
    """The dot product of two batches of tensors along ``axes`` (an int, or one per input), each
    example with its own: Keras's ``batch_dot``; ``normalize=True`` takes cosine similarities.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Dot(axes=1)([tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])]).numpy()
        array([[11.]], dtype=float32)
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.axes = axes if isinstance(axes, int) else tuple(axes)
        self.normalize = normalize

    def _check_shapes(self, shapes):
        if len(shapes) != 2:
            raise ValueError(f"Dot layer {self.name!r} should be called on exactly 2 inputs. Received "
                             f"{len(shapes)} inputs of shapes {shapes}.")
        first, second = self._axes(shapes)
        if shapes[0][first] is not None and shapes[1][second] is not None and \
                shapes[0][first] != shapes[1][second]:
            raise ValueError(f"Dot layer {self.name!r}: the dot axes have different sizes "
                             f"{shapes[0][first]} and {shapes[1][second]}. Received shapes {shapes}.")

    def _axes(self, shapes):
        axes = (self.axes, self.axes) if isinstance(self.axes, int) else self.axes
        return tuple(a % len(s) for a, s in zip(axes, shapes))

    def compute_output_shape(self, input_shape):
        shapes = [list(s) for s in input_shape]
        first, second = self._axes(shapes)
        out = [shapes[0][0]] + [d for i, d in enumerate(shapes[0]) if i not in (0, first)] + \
            [d for i, d in enumerate(shapes[1]) if i not in (0, second)]
        return tuple(out if len(out) > 1 else out + [1])

    def call(self, inputs):
        x, y = inputs
        first, second = self._axes([x.shape, y.shape])
        if self.normalize:
            x, y = l2_normalize(x, axis=first), l2_normalize(y, axis=second)
        return _batch_dot(x, y, first=first, second=second)

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


@op("keras_batch_dot", static=("first", "second"))
def _batch_dot(x, y, first, second):
    out = jax.lax.dot_general(x, y, (((first,), (second,)), ((0,), (0,))))
    return out[:, None] if out.ndim == 1 else out


def add(inputs, **kwargs):
    """``Add(**kwargs)(inputs)``."""
    return Add(**kwargs)(inputs)


def dot(inputs, axes=-1, **kwargs):
    """``Dot(axes, **kwargs)(inputs)``."""
    return Dot(axes=axes, **kwargs)(inputs)


def subtract(inputs, **kwargs):
    """``Subtract(**kwargs)(inputs)``."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """``Multiply(**kwargs)(inputs)``."""
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """``Average(**kwargs)(inputs)``."""
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """``Maximum(**kwargs)(inputs)``."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """``Minimum(**kwargs)(inputs)``."""
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """``Concatenate(axis, **kwargs)(inputs)``."""
    return Concatenate(axis=axis, **kwargs)(inputs)

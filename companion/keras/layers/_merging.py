"""Layers that merge a list of inputs: element-wise (`Add`, `Subtract`, `Multiply`, `Average`,
`Maximum`, `Minimum`) or by joining them (`Concatenate`), with their functional forms (`Dot` is in
`_dot.py`)."""

import functools

from companion._core._shape import TensorShape
from companion._ops._array import concat, expand_dims
from companion._ops._math import maximum as _maximum
from companion._ops._math import minimum as _minimum
from companion.keras.layers._layer import Layer


class _Merge(Layer):
    """Base of layers called on a list of tensors."""

    def build(self, input_shape):
        shapes = _shape_tuples(input_shape)
        if not shapes or not isinstance(shapes[0], tuple):
            raise ValueError("A merge layer should be called on a list of inputs. "
                             f"Received: input_shape={input_shape} (not a list of shapes)")
        self._check_shapes(shapes)

    def _check_shapes(self, shapes):
        pass


class _Elementwise(_Merge):
    """A merge of tensors whose example shapes broadcast (Keras 3's rules: aligned from the right,
    a size-1 axis stretches), combined by ``_combine`` applied pairwise. Inputs of lower rank get
    size-1 axes inserted after the batch axis first."""

    @staticmethod
    def _combine(a, b):
        raise NotImplementedError

    def _check_shapes(self, shapes):
        batch_sizes = {s[0] for s in shapes if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError(f"Cannot merge tensors with different batch sizes. Received tensors with "
                             f"shapes {shapes}")
        _example_shape(shapes)
        self._reshape_required = len({len(s) for s in shapes}) != 1

    def compute_output_shape(self, input_shape):
        shapes = _shape_tuples(input_shape)
        batch_sizes = {s[0] for s in shapes} - {None}
        return (batch_sizes.pop() if len(batch_sizes) == 1 else None,) + _example_shape(shapes)

    def call(self, inputs):
        if getattr(self, "_reshape_required", False):
            rank = max(x.ndim for x in inputs)
            inputs = [_with_rank(x, rank) for x in inputs]
        return functools.reduce(self._combine, inputs)


def _shape_tuples(input_shape):
    """``input_shape`` as Keras 3 gives it to ``build``: a list of shape tuples for a list of
    inputs, one shape tuple for a single input."""
    if isinstance(input_shape, (list, tuple)) and all(isinstance(s, (list, tuple, TensorShape))
                                                      for s in input_shape):
        return [tuple(s) for s in input_shape]
    return tuple(input_shape)


def _example_shape(shapes):
    """The broadcast shape of the examples (the axes after the batch axis) of ``shapes``."""
    out = shapes[0][1:]
    for shape in shapes[1:]:
        out = _broadcast(out, shape[1:])
    return out


def _broadcast(first, second):
    if len(first) < len(second):
        first, second = second, first
    if not second:
        return first
    out = list(first[:-len(second)])
    for i, j in zip(first[-len(second):], second):
        if i is not None and j is not None and i != j and 1 not in (i, j):
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {first} and {second}")
        out.append(None if i is None or j is None else j if i == 1 else i)
    return tuple(out)


def _with_rank(x, rank):
    for _ in range(rank - x.ndim):
        x = expand_dims(x, 1)
    return x


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
        super()._check_shapes(shapes)
        if len(shapes) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: input_shape={shapes}")


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

    def build(self, input_shape):
        shapes = _shape_tuples(input_shape)
        if not shapes or not isinstance(shapes[0], tuple):
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 input. "
                             f"Received: input_shape={input_shape}")
        self._check_shapes(shapes)

    def _check_shapes(self, shapes):
        """Keras 3's check: the shapes without the concatenation axis agree where both are known."""
        reduced = set()
        for shape in shapes:
            shape = list(shape)
            if len(shape) > self.axis:
                del shape[self.axis]
            reduced.add(tuple(shape))
        if len(reduced) == 1:
            return
        ranks = {len(s) for s in reduced}
        if len(ranks) != 1 or any(len({s[i] for s in reduced} - {None}) > 1 for i in range(ranks.pop())):
            raise ValueError("A `Concatenate` layer requires inputs with matching shapes except for the "
                             f"concatenation axis. Received: input_shape={shapes}")

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

"""`Dot`: the dot products of two batches of tensors, example by example, and its functional form."""

import jax

from companion._core._op import op
from companion._ops._nn_normalization import l2_normalize
from companion.keras.layers._merging import _Merge, _shape_tuples


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

    def build(self, input_shape):
        shapes = _shape_tuples(input_shape)
        if not isinstance(shapes, list) or len(shapes) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: "
                             f"input_shape={input_shape}")
        self._check_shapes(shapes)

    def _check_shapes(self, shapes):
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


def dot(inputs, axes=-1, **kwargs):
    """``Dot(axes, **kwargs)(inputs)``."""
    return Dot(axes=axes, **kwargs)(inputs)

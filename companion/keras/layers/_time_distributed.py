"""`TimeDistributed`: one layer applied to every step of a sequence (the steps folded into the batch)."""

from companion._core._convert import as_input
from companion._ops._array import reshape
from companion._ops._array import shape as dynamic_shape
from companion.keras.layers._call_context import call_parameters
from companion.keras.layers._layer import Layer
from companion.keras.layers._wrapper import Wrapper


class TimeDistributed(Wrapper):
    """Applies ``layer`` to each step ``inputs[:, t]`` of ``(batch, steps, ...)`` inputs, with the same
    weights for every step.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(8))(tf.ones([2, 5, 3])).shape
        TensorShape([2, 5, 8])
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"TimeDistributed wraps a Keras layer. Received: layer={layer!r}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def build(self, input_shape):
        shape = tuple(input_shape)
        if len(shape) < 3:
            raise ValueError(f"TimeDistributed layer {self.name!r} needs inputs of rank 3 or more (batch, "
                             f"steps, ...). Received: input_shape={shape}")
        if not self.layer.built:
            self.layer.build((None,) + shape[2:])

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        inner = tuple(self.layer.compute_output_shape((None,) + shape[2:]))
        return shape[:2] + inner[1:]

    def call(self, inputs, training=None, mask=None):
        inputs = as_input(inputs)
        static = inputs.shape.as_list()
        batch = static[0] if static[0] is not None else dynamic_shape(inputs)[0]
        steps = static[1] if static[1] is not None else dynamic_shape(inputs)[1]
        accepted = call_parameters(type(self.layer))
        kwargs = {"training": training} if "training" in accepted else {}
        if mask is not None and "mask" in accepted:
            kwargs["mask"] = reshape(as_input(mask), [-1] + list(as_input(mask).shape[2:]))
        outputs = as_input(self.layer(reshape(inputs, [-1] + static[2:]), **kwargs))
        return reshape(outputs, [batch, steps] + outputs.shape.as_list()[1:])

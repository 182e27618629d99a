"""`EinsumDense`: a dense layer whose product is any einsum equation (Keras 3's shape analysis)."""

import re

from companion._core._convert import as_input
from companion._ops._linalg import einsum
from companion.keras import activations, constraints, initializers, regularizers
from companion.keras.initializers._variance_scaling import VarianceScaling
from companion.keras.layers._layer import Layer


class EinsumDense(Layer):
    """``activation(einsum(equation, inputs, kernel) + bias)``, with the kernel's and bias's shapes
    read from ``equation`` and ``output_shape`` (the output's shape without the batch axis; ``None``
    entries come from the input).

    ``equation`` is ``"ab,bc->ac"``-like, or with ``...`` on the left or right of the input and
    output; ``bias_axes`` names the output letters that get a bias.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4), bias_axes="de")
        >>> layer(tf.ones([3, 5, 8])).shape, layer.kernel.shape, layer.bias.shape
        (TensorShape([3, 5, 2, 4]), TensorShape([8, 2, 4]), TensorShape([2, 4]))
    """

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        activity_regularizer = kwargs.pop("activity_regularizer", None)
        for unsupported in ("lora_rank", "lora_alpha", "gptq_config", "quantization_config"):
            if kwargs.pop(unsupported, None) is not None:
                raise ValueError(f"EinsumDense: `{unsupported}` is not supported by companion.")
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.equation = equation
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.full_output_shape = None

    def build(self, input_shape):
        kernel_shape, bias_shape, self.full_output_shape, input_axes, output_axes = analyze_einsum(
            self.equation, self.bias_axes, tuple(input_shape), self.partial_output_shape)
        init = self.kernel_initializer
        if isinstance(init, VarianceScaling) and (init.input_axes is None or init.output_axes is None):
            init = type(init).from_config({**init.get_config(), "input_axes": input_axes,
                                           "output_axes": output_axes})
        self.kernel = self.add_weight(name="kernel", shape=tuple(kernel_shape), initializer=init,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None if bias_shape is None else self.add_weight(
            name="bias", shape=tuple(bias_shape), initializer=self.bias_initializer,
            regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs, training=None):
        x = einsum(self.equation, as_input(inputs), self.kernel)
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(analyze_einsum(self.equation, self.bias_axes, tuple(input_shape),
                                    self.partial_output_shape)[2])

    def get_config(self):
        return {**super().get_config(), "output_shape": self.partial_output_shape, "equation": self.equation,
                "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint)}


def analyze_einsum(equation, bias_axes, input_shape, output_shape):
    """``(kernel_shape, bias_shape, full_output_shape, input_axes, output_axes)`` of an EinsumDense:
    the kernel's letters take their sizes from the output (or the input), the bias spans the output
    from the first bias letter on (1 for the other letters), as Keras 3 computes them."""
    dotted = equation.replace("...", "0")
    for pattern, left in (("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
                          ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
                          ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False)):
        match = re.match(pattern, dotted)
        if match:
            return _analyze(*match.groups(), bias_axes, input_shape, output_shape, left)
    raise ValueError(f"Invalid einsum equation {equation!r}. Equations must be in the form [X],[Y]->[Z], "
                     "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _analyze(input_spec, weight_spec, output_spec, bias_axes, input_shape, output_shape, left_elided):
    elided = len(input_shape) - len(input_spec)
    full = [input_shape[0], *output_shape]
    if elided > 0 and left_elided:
        for i in range(1, elided):
            full.insert(1, input_shape[i])
    elif elided > 0:
        full.extend(input_shape[len(input_shape) - elided:])
    if left_elided:
        input_index = {d: i + elided - len(input_shape) for i, d in enumerate(input_spec)}
        output_index = {d: i + elided for i, d in enumerate(output_spec)}
    else:
        input_index = {d: i for i, d in enumerate(input_spec)}
        output_index = {d: i for i, d in enumerate(output_spec)}
    for d in input_spec:
        if d in output_index:
            size = full[output_index[d]]
            if size is not None and size != input_shape[input_index[d]]:
                raise ValueError(f"Input shape and output shape do not match at shared dimension {d!r}. "
                                 f"Input shape is {input_shape[input_index[d]]}, and output shape is {size}.")
    for d in output_spec:
        if d not in input_spec and d not in weight_spec:
            raise ValueError(f"Dimension {d!r} was specified in the output {output_spec!r} but has no "
                             f"corresponding dim in the input spec {input_spec!r} or weight spec "
                             f"{weight_spec!r}.")
    kernel_shape, input_axes, output_axes = [], [], []
    for i, d in enumerate(weight_spec):
        if d in output_index:
            kernel_shape.append(full[output_index[d]])
            output_axes.append(i)
        elif d in input_index:
            kernel_shape.append(input_shape[input_index[d]])
            input_axes.append(i)
        else:
            raise ValueError(f"Weight dimension {d!r} did not have a match in either the input spec "
                             f"{input_spec!r} or the output spec {output_spec!r}. For this layer, the "
                             "weight must be fully specified.")
    bias_shape = None
    if bias_axes is not None:
        offset = elided if left_elided else 0
        sizes = {d: full[i + offset] for i, d in enumerate(output_spec)}
        for d in bias_axes:
            if d not in output_spec:
                raise ValueError(f"Bias dimension {d!r} was requested, but is not part of the output spec "
                                 f"{output_spec!r}.")
        first = min(output_spec.find(d) for d in bias_axes)
        bias_shape = [sizes[d] if d in bias_axes else 1 for d in output_spec[first:]]
        if not left_elided:
            bias_shape.extend([1] * max(elided, 0))
    return kernel_shape, bias_shape, full, input_axes, output_axes

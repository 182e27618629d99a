"""What Dense and Conv2D share: an activation, a kernel and an optional bias, and their config."""

from companion.keras import activations, constraints, initializers, regularizers


def configure(layer, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
              bias_regularizer, kernel_constraint=None, bias_constraint=None):
    """Validates and stores the kernel/bias/activation arguments on ``layer``."""
    layer.activation = activations.get(activation)
    layer.use_bias = bool(use_bias)
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = constraints.get(kernel_constraint)
    layer.bias_constraint = constraints.get(bias_constraint)


def add_kernel_and_bias(layer, kernel_shape, units):
    """Creates ``layer.kernel`` of ``kernel_shape`` and ``layer.bias`` of ``(units,)`` (or None)."""
    layer.kernel = layer.add_weight(name="kernel", shape=kernel_shape, initializer=layer.kernel_initializer,
                                    regularizer=layer.kernel_regularizer, constraint=layer.kernel_constraint)
    layer.bias = layer.add_weight(name="bias", shape=(units,), initializer=layer.bias_initializer,
                                  regularizer=layer.bias_regularizer,
                                  constraint=layer.bias_constraint) if layer.use_bias else None


def config(layer):
    """The serialized kernel/bias/activation arguments, for ``get_config``."""
    return {"activation": activations.serialize(layer.activation), "use_bias": layer.use_bias,
            "kernel_initializer": initializers.serialize(layer.kernel_initializer),
            "bias_initializer": initializers.serialize(layer.bias_initializer),
            "kernel_regularizer": regularizers.serialize(layer.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(layer.bias_regularizer),
            "activity_regularizer": regularizers.serialize(layer.activity_regularizer),
            "kernel_constraint": constraints.serialize(layer.kernel_constraint),
            "bias_constraint": constraints.serialize(layer.bias_constraint)}

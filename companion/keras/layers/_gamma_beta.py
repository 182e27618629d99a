"""What the normalization layers share: the learned scale ``gamma`` and shift ``beta`` (their
switches, initializers, regularizers, constraints, weights and config entries)."""

from companion.keras import constraints, initializers, regularizers


def configure(layer, center, scale, beta_initializer, gamma_initializer, beta_regularizer, gamma_regularizer,
              beta_constraint, gamma_constraint):
    """Validates and stores the gamma/beta arguments on ``layer``."""
    layer.center, layer.scale = bool(center), bool(scale)
    layer.beta_initializer = initializers.get(beta_initializer)
    layer.gamma_initializer = initializers.get(gamma_initializer)
    layer.beta_regularizer = regularizers.get(beta_regularizer)
    layer.gamma_regularizer = regularizers.get(gamma_regularizer)
    layer.beta_constraint = constraints.get(beta_constraint)
    layer.gamma_constraint = constraints.get(gamma_constraint)


def add_gamma_and_beta(layer, shape):
    """Creates ``layer.gamma`` (when ``scale``) and ``layer.beta`` (when ``center``) of ``shape``."""
    layer.gamma = layer.add_weight(name="gamma", shape=shape, initializer=layer.gamma_initializer,
                                   regularizer=layer.gamma_regularizer,
                                   constraint=layer.gamma_constraint) if layer.scale else None
    layer.beta = layer.add_weight(name="beta", shape=shape, initializer=layer.beta_initializer,
                                  regularizer=layer.beta_regularizer,
                                  constraint=layer.beta_constraint) if layer.center else None


def config(layer):
    """The serialized gamma/beta arguments, for ``get_config``."""
    return {"center": layer.center, "scale": layer.scale,
            "beta_initializer": initializers.serialize(layer.beta_initializer),
            "gamma_initializer": initializers.serialize(layer.gamma_initializer),
            "beta_regularizer": regularizers.serialize(layer.beta_regularizer),
            "gamma_regularizer": regularizers.serialize(layer.gamma_regularizer),
            "beta_constraint": constraints.serialize(layer.beta_constraint),
            "gamma_constraint": constraints.serialize(layer.gamma_constraint)}

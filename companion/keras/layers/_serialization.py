"""`serialize` and `deserialize` for layers: ``{'class_name', 'config'}`` dicts and back."""

from companion.keras import _registry
from companion.keras.layers._layer import Layer


def serialize(layer):
    """``{'class_name': ..., 'config': layer.get_config()}``, with the layer's ``build_config`` when it
    has one (a built layer with a `build` of its own, as Keras 3 records it).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.serialize(tf.keras.layers.Dense(2, name="d"))["config"]["units"]
        2
    """
    config = _registry.serialize(layer, Layer, _not_a_layer, "keras.layers")
    build_config = layer.get_build_config()
    if build_config is not None:
        config["build_config"] = build_config
    return config


def deserialize(config, custom_objects=None):
    """A new layer from `serialize`'s dict (``custom_objects`` maps names of your own classes).

    Example:
        >>> import companion as tf
        >>> config = tf.keras.layers.serialize(tf.keras.layers.Dense(2, name="d"))
        >>> tf.keras.layers.deserialize(config).units
        2
    """
    cls, kwargs = _registry.class_and_config(config, _known_layers(), "layer", custom_objects)
    layer = cls.from_config(kwargs)
    build_config = config.get("build_config") if isinstance(config, dict) else None
    if build_config and not layer.built:  # Keras 3 builds the layer's weights before its container does
        layer.build_from_config(build_config)
    return layer


def _known_layers():
    # deferred: companion.keras.models imports this package at its top (models are built on layers)
    from companion.keras import layers, models

    found = {}
    for module in (layers, models):
        for name in getattr(module, "__all__", []):
            value = getattr(module, name)
            if isinstance(value, type) and issubclass(value, Layer):
                found[value.__name__] = value
    return found


def _not_a_layer(obj):
    raise TypeError(f"serialize expects a keras Layer. Received: {obj!r}")

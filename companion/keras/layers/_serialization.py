"""`serialize` and `deserialize` for layers: ``{'class_name', 'config'}`` dicts and back."""

from companion.keras import _registry
from companion.keras.layers._layer import Layer


def serialize(layer):
    """Keras 3's ``{'module', 'class_name', 'config', 'registered_name'}`` dict of ``layer``, with its
    ``build_config`` when it has one (a built layer with a `build` of its own, as Keras 3 records
    it) and, for a model, its ``compile_config`` (``{}`` before ``compile``).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.serialize(tf.keras.layers.Dense(2, name="d"))["config"]["units"]
        2
    """
    return _registry.serialize(layer, Layer, _not_a_layer, "keras.layers")


def deserialize(config, custom_objects=None):
    """A new layer from `serialize`'s dict (``custom_objects`` maps names of your own classes); a
    model whose dict holds a ``compile_config`` comes back compiled, as in Keras 3.

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
    compile_config = config.get("compile_config") if isinstance(config, dict) else None
    if compile_config and hasattr(layer, "compile_from_config"):  # a compiled model comes back compiled
        # deferred: companion.keras.saving imports this package at its top (_keras_file)
        from companion.keras.saving._object_registry import CustomObjectScope

        with CustomObjectScope(custom_objects or {}):
            layer.compile_from_config(compile_config)
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
    found["Functional"] = models.Model  # Keras 3's class of Model(inputs, outputs)
    return found


def _not_a_layer(obj):
    raise TypeError(f"serialize expects a keras Layer. Received: {obj!r}")

"""``companion.keras.saving``: whole-model ``.keras`` files and the registry of custom objects."""

from companion.keras.saving._keras_file import load_model, save_model
from companion.keras.saving._object_registry import (
    CustomObjectScope,
    custom_object_scope,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
)
from companion.keras.saving._serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["CustomObjectScope", "custom_object_scope", "deserialize_keras_object", "get_custom_objects",
           "get_registered_name", "get_registered_object", "load_model", "register_keras_serializable",
           "save_model", "serialize_keras_object"]

"""``.keras`` files: `save_model` and `load_model`, the whole model (architecture, weights, compile state).

A ``.keras`` file is a zip archive laid out as Keras 3 lays it out: ``metadata.json``
(versions, date), ``config.json`` (the model's ``{'class_name', 'config'}``, with
``compile_config`` and ``build_config``) and the weights, ``model.weights.h5``: Keras 3's
member names. The weights member holds companion's own weights file (see
`companion.keras._weights_file`), not HDF5, so no HDF5 library is needed; files therefore load
in companion, not in Keras, and Keras's files do not load here. Files of earlier versions, whose
weights member is ``model.weights.npz``, still load.
"""

import datetime
import json
import os
import tempfile
import warnings
import zipfile

from companion import __version__
from companion.keras import _weights_file
from companion.keras.layers import serialize
from companion.keras.saving._compile_config import compile_config, compile_from_config
from companion.keras.saving._object_registry import CustomObjectScope
from companion.keras.saving._safe_mode import SafeModeScope
from companion.keras.saving._serialization import deserialize_keras_object

CONFIG, METADATA, WEIGHTS = "config.json", "metadata.json", "model.weights.h5"  # Keras 3's names
LEGACY_WEIGHTS = "model.weights.npz"  # the weights member of files earlier versions wrote


def save_model(model, filepath, overwrite=True, **kwargs):
    """Writes ``model`` to ``filepath``, which must end in ``.keras``.

    Raises:
        ImportError: ``.h5``/``.hdf5``, Keras's legacy HDF5 format, which needs h5py (not used here).
        ValueError: another extension.
        FileExistsError: the file exists and ``overwrite`` is False.
        TypeError: the model's config is not JSON (e.g. a Lambda of a Python lambda).

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> inputs = tf.keras.Input((3,))
        >>> model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
        >>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
        >>> model.save(path)
        >>> type(tf.keras.models.load_model(path)).__name__
        'Model'
    """
    filepath = os.fspath(filepath)
    _check_extension(filepath, "save")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath!r} exists and overwrite=False. Pass overwrite=True or choose "
                              "another path.")
    if not model.built:
        warnings.warn(f"Model {model.name!r} is saved before it was built, so the file holds no weights. "
                      "Call it on data (or build it) first.", stacklevel=3)
    config = json.dumps(model_config(model))
    with tempfile.TemporaryDirectory() as folder:
        weights = _weights_file.save_weights(model, os.path.join(folder, WEIGHTS))
        with zipfile.ZipFile(filepath, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(METADATA, json.dumps(_metadata()))
            archive.writestr(CONFIG, config)
            archive.write(weights, WEIGHTS)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002 - Keras's name
    """The model saved in a ``.keras`` file: rebuilt from its config, weights loaded, recompiled.

    With ``compile=True`` (and a model that was compiled when saved) the optimizer, losses
    and metrics are restored, with the optimizer's state, so ``fit`` continues where it
    stopped. Classes of your own are found in ``custom_objects``, in a
    `custom_object_scope`, or registered with `register_keras_serializable`.

    Raises:
        ValueError: the file is missing or is not a ``.keras`` file.
        TypeError: the config names a class or function that is not known (Keras's "Could not
            locate class/function" error, inside "... could not be deserialized properly" for a
            layer of a model).
    """
    filepath = os.fspath(filepath)
    _check_extension(filepath, "load")
    if not os.path.isfile(filepath):
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an accessible "
                         "`.keras` zip file.")
    with zipfile.ZipFile(filepath) as archive, CustomObjectScope(custom_objects), SafeModeScope(safe_mode):
        config = json.loads(archive.read(CONFIG))
        model = model_from_config(config, custom_objects)
        if compile and config.get("compile_config"):
            compile_from_config(model, config["compile_config"], custom_objects)
        member = WEIGHTS if WEIGHTS in archive.namelist() else LEGACY_WEIGHTS
        with tempfile.TemporaryDirectory() as folder:
            archive.extract(member, folder)
            _weights_file.load_weights(model, os.path.join(folder, member))
    return model


def model_to_json(model, **kwargs):
    """`Model.to_json`: the model's config (`model_config`) as a JSON string; ``kwargs`` go to
    ``json.dumps`` (e.g. ``indent=2``)."""
    return json.dumps(model_config(model), **kwargs)


def model_from_json(json_string, custom_objects=None):
    """A new model from `Model.to_json`'s string: built and compiled as the model was, fresh weights.

    Raises:
        ValueError: ``json_string`` is not JSON (``json.JSONDecodeError``).
        TypeError: the config names a class that is not known.
    """
    config = json.loads(json_string)
    with CustomObjectScope(custom_objects):
        model = model_from_config(config, custom_objects)
        if config.get("compile_config"):
            compile_from_config(model, config["compile_config"], custom_objects)
    return model


def model_config(model):
    """``{'class_name', 'config', 'registered_name', 'compile_config', 'build_config'}`` of ``model``."""
    config = serialize(model)  # with the model's build_config, when it has one
    config["compile_config"] = compile_config(model)
    return config


def model_from_config(config, custom_objects=None):
    """A new model from `model_config`'s dict, built when the saved model was (not compiled: the
    callers compile, `load_model` after the weights are in)."""
    model = deserialize_keras_object({k: v for k, v in config.items() if k != "compile_config"},
                                     custom_objects=custom_objects)
    build = config.get("build_config") or {}
    if not model.built and build.get("input_shape") is not None:
        model.build_from_config({"input_shape": _shape(build["input_shape"])})
    return model


def _check_extension(filepath, action):
    if filepath.endswith(".keras"):
        return
    if filepath.endswith((".h5", ".hdf5")):  # Keras 3 without h5py raises this ImportError
        raise ImportError(f"`{action}_model()` using h5 format requires h5py. Could not import h5py: "
                          "companion has no HDF5 library, so it cannot read or write Keras's legacy HDF5 "
                          "format. Use the native Keras format instead, e.g. `model.save('my_model.keras')` "
                          f"and `keras.models.load_model('my_model.keras')`. Received: filepath={filepath}")
    raise ValueError(f"Invalid filepath extension for {'saving' if action == 'save' else 'loading'}. "
                     "Add a `.keras` extension (the native Keras format). Received: "
                     f"filepath={filepath}")


def _metadata():
    return {"companion_version": __version__, "weights_format": "npz",
            "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}


def _shape(saved):
    if isinstance(saved, dict):
        return {k: _shape(v) for k, v in saved.items()}
    if saved and isinstance(saved[0], list):
        return [tuple(s) for s in saved]
    return tuple(saved)

"""Keras 3's form of an error raised inside a layer's ``call``: what it was called with, added.

Keras 3 re-raises an exception that escapes a layer's (or model's) ``call`` as a new one of the
same class whose message names the call and lists the arguments it received::

    Exception encountered when calling Reshape.call().

    <the original message, in bold>

    Arguments received by Reshape.call():
      • inputs=companion.Tensor(shape=(2, 3), dtype=float32)

Only the innermost failing call adds this (an outer model's call re-raises the error as it is).
Errors of the input checks and of ``build``, which run before ``call``, are left as they are. On
symbolic inputs (`keras.Input`) Keras 3 shows the call as ``symbolic_call(*args, **kwargs)``, and
when the layer has no ``compute_output_shape`` of its own it first says the output could not be
inferred. ``keras.config.disable_traceback_filtering()`` turns all of this off, as in Keras 3.
"""

import inspect

from companion._core._tensor import Tensor
from companion._staging._needs_values import NeedsValues
from companion.keras.layers._tracking import map_structure

_settings = {"traceback_filtering": True}


def is_traceback_filtering_enabled():
    """Whether errors raised in a layer's call name the call and its arguments (default True).

    Example:
        >>> import companion as tf
        >>> tf.keras.config.is_traceback_filtering_enabled()
        True
    """
    return _settings["traceback_filtering"]


def enable_traceback_filtering():
    """Errors raised in a layer's call name the call and its arguments (Keras 3's default)."""
    _settings["traceback_filtering"] = True


def disable_traceback_filtering():
    """Errors raised in a layer's call are raised as they are."""
    _settings["traceback_filtering"] = False


def call_reporting_arguments(layer, call, args, kwargs):
    """``call(*args, **kwargs)`` (``layer.call`` on values); an error it raises is re-raised in
    Keras 3's form, naming ``layer``'s class and the arguments."""
    if not _settings["traceback_filtering"]:
        return call(*args, **kwargs)
    try:
        return call(*args, **kwargs)
    except Exception as error:
        raise _with_arguments(error, layer, inspect.signature(call), args, kwargs) from None


def symbolic_call_reporting_arguments(layer, call, args, kwargs):
    """``call()`` (``layer`` called on symbolic ``args``/``kwargs``); an error is re-raised in the
    form Keras 3 gives an error of its ``symbolic_call(*args, **kwargs)``."""
    if not _settings["traceback_filtering"]:
        return call()
    try:
        return call()
    except Exception as error:
        if type(layer).compute_output_shape is _base_compute_output_shape():
            error = _not_inferred(error, layer)
        raise _with_arguments(error, layer, _SYMBOLIC_SIGNATURE, args, kwargs) from None


def format_argument_value(value):
    """A tensor as its class, shape and dtype (its values would flood the message); else its repr."""
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        return f"companion.Tensor(shape={value.shape}, dtype={value.dtype.name})"
    return repr(value)


def _with_arguments(error, layer, signature, args, kwargs):
    if getattr(error, "_keras_call_info_injected", False):
        return error  # an inner call's error: only the innermost call adds its arguments
    if isinstance(error, NeedsValues):
        return error  # a trace's signal to run eagerly (the eager run reports any real error)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return error
    lines = []
    for parameter in signature.parameters.values():
        if parameter.name in bound.arguments:
            value = map_structure(format_argument_value, bound.arguments[parameter.name])
        else:
            value = parameter.default
        lines.append(f"  • {parameter.name}={value}")
    if not lines:
        return error
    name = f"{layer._display_class_name()}.call()"
    message = (f"Exception encountered when calling {name}.\n\n\x1b[1m{_message(error)}\x1b[0m\n\n"
               f"Arguments received by {name}:\n" + "\n".join(lines))
    return _like(error, message)


def _not_inferred(error, layer):
    if isinstance(error, NeedsValues):
        return error
    cls = type(layer).__name__
    message = (f"Could not automatically infer the output shape / dtype of '{layer.name}' (of type "
               f"{cls}). Either the `{cls}.call()` method is incorrect, or you need to implement the "
               f"`{cls}.compute_output_spec() / compute_output_shape()` method. Error encountered:"
               f"\n\n{error}")
    new = _like(error, message)
    del new._keras_call_info_injected  # Keras 3 makes a new error here: the call adds its arguments
    return new


def _message(error):
    if hasattr(error, "message") and hasattr(error, "node_def"):  # an op error: its own message
        return error.message
    return error.args[0] if error.args else ""


def _like(error, message):
    """A new error of ``error``'s class (RuntimeError when the class takes no message)."""
    try:
        if hasattr(error, "message") and hasattr(error, "node_def"):
            new = type(error)(error.node_def, error.op, message)
        else:
            new = type(error)(message)
    except TypeError:
        new = RuntimeError(message)
    for note in getattr(error, "__notes__", ()):
        new.add_note(note)
    new._keras_call_info_injected = True
    return new.with_traceback(error.__traceback__)


def _symbolic_call(*args, **kwargs):
    """The signature Keras 3 shows for a call on symbolic inputs."""


_SYMBOLIC_SIGNATURE = inspect.signature(_symbolic_call)


def _base_compute_output_shape():
    # deferred: _layer imports this module at its top
    from companion.keras.layers._layer import Layer

    return Layer.compute_output_shape

"""Looking optimizers up by name or config: `get`, `serialize`, `deserialize`."""

from companion.keras import _registry as _keras_registry
from companion.keras.optimizers._adadelta import Adadelta
from companion.keras.optimizers._adafactor import Adafactor
from companion.keras.optimizers._adagrad import Adagrad
from companion.keras.optimizers._adam import Adam
from companion.keras.optimizers._adamax import Adamax
from companion.keras.optimizers._adamw import AdamW
from companion.keras.optimizers._ftrl import Ftrl
from companion.keras.optimizers._lamb import Lamb
from companion.keras.optimizers._lion import Lion
from companion.keras.optimizers._loss_scale_optimizer import LossScaleOptimizer
from companion.keras.optimizers._nadam import Nadam
from companion.keras.optimizers._optimizer import Optimizer
from companion.keras.optimizers._rmsprop import RMSprop
from companion.keras.optimizers._sgd import SGD

_CLASSES = {cls.__name__.lower(): cls for cls in (SGD, Adam, AdamW, Adamax, RMSprop, Adagrad, Adadelta,
                                                  Adafactor, Nadam, Ftrl, Lamb, Lion, LossScaleOptimizer)}


def get(identifier):
    """An optimizer from a name (``"adam"``, case-insensitive), a config dict, or an instance.

    Example:
        >>> import companion as tf
        >>> type(tf.keras.optimizers.get("adam")).__name__
        'Adam'
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        return _keras_registry.by_name(_class_named, identifier, "optimizer")()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}\nPass a name such as "
                     "'adam', a config dict or an Optimizer.")


def serialize(optimizer):
    """Keras 3's ``{"module", "class_name", "config", "registered_name"}`` describing ``optimizer``."""
    return _keras_registry.serialize(optimizer, object, None, "keras.optimizers")


def deserialize(config, custom_objects=None):
    """The optimizer described by `serialize`'s dictionary."""
    name = config.get("class_name", "")
    custom = {k.lower(): v for k, v in (custom_objects or {}).items()}
    cls = custom.get(name.lower()) or _class_named(name)
    return cls.from_config(config.get("config", {}))


def _class_named(name):
    cls = _CLASSES.get(name.lower())
    if cls is None:
        raise ValueError(f"Unknown optimizer {name!r}. Known names: {sorted(_CLASSES)}.")
    return cls

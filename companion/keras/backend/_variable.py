"""`KerasVariable`: a weight made by a Keras layer, metric or optimizer, named as Keras 3 names it.

It is a `companion.Variable` (tapes, `function` and checkpoints treat it as one) whose ``name``
is the short name given to ``add_weight`` (``'kernel'``, no ``':0'``) and whose ``path`` adds the
Keras scopes open when it was created (``'sequential/dense/kernel'``), as in TF 2.21's Keras 3.
A float weight made with ``autocast=True`` (the default) is read in the compute dtype of a
mixed-precision layer while that layer calls (`companion.keras.mixed_precision`).
"""

import numpy as np

from companion._core import _dtypes
from companion._core._context import state
from companion._core._tensor import Tensor
from companion._core._variable import Variable
from companion._core._variable_aggregation import VariableAggregation, VariableSynchronization
from companion.keras.backend._name_scope import join_path


class KerasVariable(Variable):
    """A Keras weight: ``name`` as given, ``path`` under the open Keras scopes.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Dense(2, name="dense")
        >>> layer.build((None, 3))
        >>> layer.kernel.name, layer.kernel.path
        ('kernel', 'dense/kernel')
    """

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True,
                 aggregation="none", synchronization="auto", name=None, constraint=None):
        if name is None:
            # deferred: companion.keras.layers._layer imports this module at its top
            from companion.keras.layers._naming import unique_name

            name = unique_name("Variable")  # Keras: 'variable', 'variable_1', ...
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name}")
        aggregation = _choice("aggregation", aggregation, _AGGREGATIONS)
        self._keras_synchronization = _choice("synchronization", synchronization, _SYNCHRONIZATIONS)
        if isinstance(initializer, str) or (callable(initializer) and not hasattr(initializer, "__array__")):
            _check_fully_defined(shape, join_path(name))
            initializer = _initializer(initializer, shape)
            dtype = _dtypes.as_dtype("float32" if dtype is None else dtype)
            shape = tuple(shape)
            initial_value = lambda: initializer(shape, dtype=dtype)  # noqa: E731 (run eagerly, once)
        else:
            initial_value = initializer
        super().__init__(initial_value, name=name, dtype=dtype, shape=None if shape is None else tuple(shape),
                         trainable=trainable, aggregation=_AGGREGATIONS[aggregation],
                         synchronization=_SYNCHRONIZATIONS[self._keras_synchronization],
                         constraint=constraint)
        self._name = name
        self._keras_autocast = bool(autocast)  # read in a mixed-precision layer's compute dtype
        self.path = join_path(name)  # an attribute, so it survives a strategy's placement

    @property
    def aggregation(self):
        """Keras 3 names it: ``'none'``, ``'sum'``, ``'mean'`` or ``'only_first_replica'``."""
        return next(name for name, member in _AGGREGATIONS.items() if member == self._aggregation)

    @property
    def synchronization(self):
        """As given (``'auto'`` by default), also in a strategy's scope, as Keras 3 reports it."""
        return self._keras_synchronization


    def _assigned_result(self):
        """Keras 3's ``assign``/``assign_add``/``assign_sub`` return the new value, a tensor."""
        return Tensor(self._value if state.staging else self._v)

    # a Keras 3 weight has no in-place operators: `w += 1` rebinds `w` to a tensor, as Keras does
    def __iadd__(self, other):
        return self + other

    def __isub__(self, other):
        return self - other

    def __imul__(self, other):
        return self * other

    def __itruediv__(self, other):
        return self / other

    def __repr__(self):
        if self.is_traced:
            return f"<Variable path={self.path}, shape={tuple(self.shape)}, dtype={self.dtype.name} (traced)>"
        return (f"<Variable path={self.path}, shape={tuple(self.shape)}, dtype={self.dtype.name}, "
                f"value={np.asarray(self.numpy())}>")

    __str__ = __repr__


KerasVariable.__name__ = KerasVariable.__qualname__ = "Variable"  # Keras 3's class name

_AGGREGATIONS = {"none": VariableAggregation.NONE, "mean": VariableAggregation.MEAN,
                 "sum": VariableAggregation.SUM, "only_first_replica": VariableAggregation.ONLY_FIRST_REPLICA}
_SYNCHRONIZATIONS = {"none": VariableSynchronization.NONE, "on_read": VariableSynchronization.ON_READ,
                     "on_write": VariableSynchronization.ON_WRITE, "auto": VariableSynchronization.AUTO}


def _choice(argument, value, names):
    """A Keras name among ``names`` for ``value`` (None, a name, or a member of TF's enum)."""
    if value is None:
        return "none" if argument == "aggregation" else "auto"
    for name, member in names.items():
        if value == name or value == member:
            return name
    allowed = ", ".join(f"`{name!r}`" for name in names)
    raise ValueError(f"Invalid value for argument `{argument}`. Expected one of `None`, {allowed}. "
                     f"Received: {argument}={value}")


def _initializer(identifier, shape):
    """The initializer to call with ``(shape, dtype=...)``; a shape is required."""
    # deferred: the initializers package builds on Keras's backend (this package)
    from companion.keras import initializers

    found = initializers.get(identifier)
    if shape is None:
        raise ValueError("When creating a Variable from an initializer, the `shape` argument should be "
                         f"specified. Received: initializer={found!r} and shape=None")
    return found


def _check_fully_defined(shape, path):
    """Keras 3's error for a weight of unknown size (a layer built on an input axis that is None)."""
    if shape is not None and None in tuple(shape):
        raise ValueError("Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
                         f"Received: shape={tuple(shape)} for variable path='{path}'\n"
                         "A layer makes its weights from its input's shape: give the input a known size "
                         "on the axes the layer needs (for Dense, the last one), e.g. "
                         "keras.Input(shape=(None, 8)).")

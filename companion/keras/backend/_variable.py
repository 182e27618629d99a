"""`KerasVariable`: a weight made by a Keras layer, metric or optimizer, named as Keras 3 names it.

It is a `companion.Variable` (tapes, `function` and checkpoints treat it as one) whose ``name``
is the short name given to ``add_weight`` (``'kernel'``, no ``':0'``) and whose ``path`` adds the
Keras scopes open when it was created (``'sequential/dense/kernel'``), as in TF 2.21's Keras 3.
A float weight made with ``autocast=True`` (the default) is read in the compute dtype of a
mixed-precision layer while that layer calls (`companion.keras.mixed_precision`).
"""

import numpy as np

from companion._core._context import state
from companion._core._tensor import Tensor
from companion._core._variable import Variable
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

    def __init__(self, initial_value, name=None, autocast=True, **kwargs):
        if name is None:
            # deferred: companion.keras.layers._layer imports this module at its top
            from companion.keras.layers._naming import unique_name

            name = unique_name("Variable")  # Keras: 'variable', 'variable_1', ...
        if not isinstance(name, str) or "/" in name:
            raise ValueError(f"A Keras weight's name must be a string without '/' (the path holds the "
                             f"scopes). Received: name={name!r}")
        super().__init__(initial_value, name=name, **kwargs)
        self._name = name
        self._keras_autocast = bool(autocast)  # read in a mixed-precision layer's compute dtype
        self.path = join_path(name)  # an attribute, so it survives a strategy's placement

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

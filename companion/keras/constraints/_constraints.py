"""`Constraint`, `MaxNorm`, `MinMaxNorm`, `NonNeg`, `UnitNorm`: projections an optimizer applies to a
weight after each update (Keras 3's formulas, ``epsilon`` 1e-7 in the norms' denominators)."""

from companion._core._convert import as_input
from companion._ops import _math, _reduce
from companion.keras.backend._config import epsilon


class Constraint:
    """Base class: ``constraint(weight)`` returns the projected weight (this one: unchanged).

    An optimizer assigns ``variable.constraint(variable)`` to each trainable variable it updated,
    after the update, as Keras does (``Dense(4, kernel_constraint=NonNeg())``).
    """

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Rescales the weights incident to each unit (the slices along ``axis``) to a norm of at most
    ``max_value``.

    Example:
        >>> import companion as tf
        >>> tf.keras.constraints.MaxNorm(2.0)(tf.constant([[3.0], [4.0]])).numpy().round(4).ravel()
        array([1.2, 1.6], dtype=float32)
    """

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        w, norms = _with_norms(w, self.axis)
        desired = _math.clip_by_value(norms, 0, self.max_value)
        return w * (desired / (epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves each unit's weight norm into ``[min_value, max_value]``: the new norm is
    ``rate * clip(norm, min_value, max_value) + (1 - rate) * norm``."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        w, norms = _with_norms(w, self.axis)
        desired = (self.rate * _math.clip_by_value(norms, self.min_value, self.max_value)
                   + (1 - self.rate) * norms)
        return w * (desired / (epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class NonNeg(Constraint):
    """Sets negative weights to 0."""

    def __call__(self, w):
        return _math.maximum(as_input(w), 0)


class UnitNorm(Constraint):
    """Divides the weights incident to each unit by their norm (along ``axis``)."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w, norms = _with_norms(w, self.axis)
        return w / (epsilon() + norms)

    def get_config(self):
        return {"axis": self.axis}


def _with_norms(w, axis):
    w = as_input(w)
    return w, _math.sqrt(_reduce.reduce_sum(_math.square(w), axis=axis, keepdims=True))

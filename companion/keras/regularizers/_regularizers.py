"""`Regularizer`, `L1`, `L2`, `L1L2`: weight penalties added to a layer's `losses`."""

import numpy as np

from companion._core._convert import as_input
from companion._ops import _math, _reduce


class Regularizer:
    """Base class: ``regularizer(weight)`` returns a scalar penalty Tensor."""

    def __call__(self, x):
        return as_input(0.0)

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x ** 2)``.

    Example:
        >>> import companion as tf
        >>> round(float(tf.keras.regularizers.L1L2(l1=0.1, l2=0.5)(tf.constant([1.0, -2.0]))), 5)
        2.8
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _factor(l1, "l1")
        self.l2 = _factor(l2, "l2")

    def __call__(self, x):
        x = as_input(x)
        penalty = as_input(0.0, x.dtype)
        if self.l1:
            penalty = penalty + self.l1 * _reduce.reduce_sum(_math.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * _reduce.reduce_sum(_math.square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    """``l1 * sum(|x|)`` (Keras's default ``l1=0.01``)."""

    def __init__(self, l1=0.01, **kwargs):
        super().__init__(l1=kwargs.pop("l", l1))

    def get_config(self):
        return {"l1": float(np.float32(self.l1))}  # Keras 3.15 keeps L1's factor as a float32 tensor


class L2(L1L2):
    """``l2 * sum(x ** 2)`` (Keras's default ``l2=0.01``)."""

    def __init__(self, l2=0.01, **kwargs):
        super().__init__(l2=kwargs.pop("l", l2))

    def get_config(self):
        return {"l2": self.l2}


def l1_l2(l1=0.01, l2=0.01):
    """An `L1L2` regularizer with both factors (Keras's function form)."""
    return L1L2(l1=l1, l2=l2)


def _factor(value, what):
    value = float(value)
    if value < 0 or value != value:
        raise ValueError(f"`{what}` must be a non-negative number. Received: {what}={value}")
    return value

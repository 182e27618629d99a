"""`Loss`: the base class of Keras losses (per-example ``call`` + weighting and reduction)."""

import contextlib

from companion._core import _dtypes
from companion._core._context import state
from companion._core._convert import as_input
from companion._core._scopes import name_scope
from companion._ops._math import cast, logical_and
from companion.keras.layers._keras_mask import get_keras_mask, set_keras_mask
from companion.keras.layers._naming import unique_name
from companion.keras.losses._loss_inputs import float_tensor, squeeze_or_expand
from companion.keras.losses._reduction import Reduction, reduce_weighted_loss


class Loss:
    """Base class of losses, TensorFlow's ``tf.keras.losses.Loss``.

    Subclasses implement ``call(y_true, y_pred)`` returning one loss per example;
    ``__call__`` multiplies it by ``sample_weight`` and applies ``reduction``.

    Args:
        reduction: ``'sum_over_batch_size'`` (the default, also ``'auto'``): the weighted
            sum divided by the number of per-example losses; ``'sum'``; or ``'none'``.
        name: an optional name.

    Example:
        >>> import companion as tf
        >>> class AbsoluteError(tf.keras.losses.Loss):
        ...     def call(self, y_true, y_pred):
        ...         return tf.abs(y_true - y_pred)
        >>> print(AbsoluteError()([1.0, 2.0], [2.0, 4.0]))
        companion.Tensor(1.5, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.SUM_OVER_BATCH_SIZE, name=None):
        # Keras 3 keeps None (read as 'none' when reducing) as given, e.g. in get_config
        self.reduction = None if reduction is None else Reduction.validate(reduction)
        # Keras 3: the class name in snake_case, made unique (`my_loss`, `my_loss_1`)
        self.name = name if name is not None else unique_name(type(self).__name__)

    def call(self, y_true, y_pred):
        """The per-example losses. Subclasses must override it."""
        raise NotImplementedError(f"{type(self).__name__} must implement call(y_true, y_pred) returning "
                                  "the per-example losses.")

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The weighted, reduced loss of ``y_pred`` against ``y_true``."""
        # a function's graph names the ops under the loss's name, as Keras 3 does
        with name_scope(self.name) if state.staging and self.name else contextlib.nullcontext():
            mask = get_keras_mask(y_pred)  # e.g. from Embedding(mask_zero=True): padded steps are left out
            losses = self.call(_at_least_float32(y_true), _at_least_float32(y_pred))
            out_mask = get_keras_mask(losses)  # entries the loss itself leaves out (ignore_class)
            if out_mask is not None:
                mask = out_mask if mask is None else logical_and(mask, out_mask)
            return reduce_weighted_loss(losses, sample_weight, self.reduction, self._display_name, mask=mask)

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @property
    def _display_name(self):
        return self.name or type(self).__name__


def _at_least_float32(value):
    """Half-precision values (a ``mixed_float16`` model's outputs) cast to float32: Keras 3 computes
    losses in float32, so they neither overflow nor lose the small per-example terms."""
    value = as_input(value)
    if value.dtype in (_dtypes.float16, _dtypes.bfloat16):
        converted = cast(value, _dtypes.float32)
        set_keras_mask(converted, get_keras_mask(value))
        return converted
    return value


class LossFunctionWrapper(Loss):
    """A `Loss` whose ``call`` is a per-example loss function, TF's ``LossFunctionWrapper``.

    Labels and predictions differing by one trailing size-1 dimension are squeezed to
    the same rank first (Keras's ``squeeze_or_expand_dimensions``).
    """

    def __init__(self, fn, reduction=Reduction.SUM_OVER_BATCH_SIZE, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        y_pred = float_tensor(y_pred)
        y_pred, y_true = squeeze_or_expand(y_pred, as_input(y_true))
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


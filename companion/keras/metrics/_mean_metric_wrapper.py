"""`MeanMetricWrapper`: the running mean of a per-example function ``fn(y_true, y_pred)``."""

from companion._core._convert import as_input
from companion._ops._math import cast
from companion.keras.layers._keras_mask import get_keras_mask
from companion.keras.losses import _get as _losses
from companion.keras.losses._loss import Loss
from companion.keras.losses._loss_inputs import float_tensor, match_weight_rank, squeeze_or_expand
from companion.keras.metrics._reduce import Mean


class MeanMetricWrapper(Mean):
    """The weighted mean of ``fn(y_true, y_pred, **kwargs)``, TF's ``MeanMetricWrapper``.

    Both inputs are cast to the metric's dtype and a trailing size-1 dimension on one of
    them is reconciled (Keras 3's ``squeeze_or_expand_to_same_rank``) before ``fn`` runs.

    Example:
        >>> import companion as tf
        >>> m = tf.keras.metrics.MeanMetricWrapper(tf.keras.losses.mean_absolute_error, name="mae")
        >>> print(m([[1.0], [2.0]], [[2.0], [2.0]]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs
        if is_keras_loss(fn):  # Keras 3: the mean of a loss is to be minimized
            self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds ``fn(y_true, y_pred)`` for this batch, weighted by ``sample_weight``."""
        mask = get_keras_mask(y_pred)
        if mask is not None:  # masked steps count for nothing (Keras 3)
            mask = cast(as_input(mask), self._dtype)
            sample_weight = mask if sample_weight is None else _times(sample_weight, mask)
        y_true = float_tensor(as_input(y_true), self._dtype)
        y_pred = float_tensor(as_input(y_pred), self._dtype)
        y_pred, y_true = squeeze_or_expand(y_pred, y_true)
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight=sample_weight)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}


def is_keras_loss(fn):
    """Whether ``fn`` is one of Keras's loss functions or a `Loss` instance."""
    return isinstance(fn, Loss) or any(fn is known for known in _losses.KNOWN_FUNCTIONS)


def _times(sample_weight, mask):
    weights = float_tensor(as_input(sample_weight), mask.dtype)
    return match_weight_rank(weights, mask) * mask

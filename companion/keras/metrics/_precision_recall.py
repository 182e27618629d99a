"""`Precision` and `Recall` of binary (or per-class) predictions at one or more thresholds."""

import jax
import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion.keras.metrics._confusion_counts import confusion_counts
from companion.keras.metrics._metric import Metric


@op("keras_ratio_no_nan", static=("scalar",))
def _ratio(hits, misses, scalar):
    total = hits + misses
    ratio = jnp.where(total == 0, 0, hits / jnp.where(total == 0, 1, total))
    return ratio[0] if scalar else ratio


_NEG_INF = -1e10  # Keras's stand-in for minus infinity


@op("keras_top_k_only", static=("k",))
def _top_k_only(y_pred, k):
    """``y_pred`` with all but each row's ``k`` largest values replaced by ``-1e10`` (Keras's rule)."""
    _, index = jax.lax.top_k(y_pred, k)
    mask = jnp.sum(jax.nn.one_hot(index, y_pred.shape[-1], dtype=y_pred.dtype), axis=-2)
    return y_pred * mask + _NEG_INF * (1 - mask)


class _ThresholdedRatio(Metric):
    """``hits / (hits + misses)`` counted at each threshold (scalar result for one threshold)."""

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    _counts = ()  # which two of (tp, fp, tn, fn) make hits and misses

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
            raise ValueError(f"{type(self).__name__}: top_k must be a positive int. "
                             f"Received: top_k={top_k!r}")
        self.init_thresholds, self.top_k = thresholds, top_k
        if top_k is not None and thresholds is None:  # Keras: every top-k prediction counts as positive
            self.thresholds = [_NEG_INF]
        else:
            self.thresholds = _thresholds(thresholds, type(self).__name__)
        self.class_id = class_id
        size = (len(self.thresholds),)
        self.hits = self.add_weight(name=self._names[0], shape=size)
        self.misses = self.add_weight(name=self._names[1], shape=size)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Counts this batch: labels are cast to bool, predictions are positive above a threshold
        (with ``top_k``, only the ``k`` largest of each row can be)."""
        if self.top_k is not None:
            y_pred = _top_k_only(as_input(y_pred, self._dtype), k=self.top_k)
        counts = confusion_counts(y_true, y_pred, sample_weight, self.thresholds, self.class_id,
                                  self._dtype, self.name)
        self.hits.assign_add(counts[self._counts[0]])
        self.misses.assign_add(counts[self._counts[1]])

    def result(self):
        return _ratio(self.hits, self.misses, scalar=len(self.thresholds) == 1)

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds, "top_k": self.top_k,
                "class_id": self.class_id}


class Precision(_ThresholdedRatio):
    """``true_positives / (true_positives + false_positives)``, TF's ``tf.keras.metrics.Precision``.

    Args:
        thresholds: a float or list of floats in [0, 1] (default 0.5); a prediction is
            positive when it is above the threshold. A list gives one result per threshold.
        class_id: compute the metric for this column of the last axis only.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.Precision()([0, 1, 1, 1], [1, 0, 1, 1]))
        companion.Tensor(0.6666667, shape=(), dtype=float32)
    """

    _counts = (0, 1)
    _names = ("true_positives", "false_positives")


class Recall(_ThresholdedRatio):
    """``true_positives / (true_positives + false_negatives)``, TF's ``tf.keras.metrics.Recall``.

    Args:
        thresholds: a float or list of floats in [0, 1] (default 0.5).
        class_id: compute the metric for this column of the last axis only.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.Recall()([0, 1, 1, 1], [1, 0, 1, 1]))
        companion.Tensor(0.6666667, shape=(), dtype=float32)
    """

    _counts = (0, 3)
    _names = ("true_positives", "false_negatives")


def _thresholds(thresholds, metric_name):
    values = [0.5] if thresholds is None else (
        list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds])
    if not values or any(not 0.0 <= float(t) <= 1.0 for t in values):
        raise ValueError(f"{metric_name}: thresholds must be numbers in [0, 1]. Received: "
                         f"thresholds={thresholds!r}")
    return [float(t) for t in values]

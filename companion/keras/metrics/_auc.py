"""`AUC`: the area under the ROC or precision-recall curve, from counts at fixed thresholds."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras.metrics._confusion_counts import confusion_counts
from companion.keras.metrics._metric import Metric

_EPSILON = 1e-7


def _no_nan(x, y):
    return jnp.where(y == 0, 0, x / jnp.where(y == 0, 1, y))


@op("keras_auc", static=("curve",))
def _auc(tp, fp, tn, fn, curve):
    """Keras's ``summation_method='interpolation'`` over thresholds in increasing order."""
    if curve == "PR":
        return _interpolated_pr_auc(tp, fp, fn)
    recall = _no_nan(tp, tp + fn)
    fp_rate = _no_nan(fp, fp + tn)
    heights = (recall[:-1] + recall[1:]) / 2
    return jnp.sum((fp_rate[:-1] - fp_rate[1:]) * heights)


def _interpolated_pr_auc(tp, fp, fn):
    """Davis & Goadrich (2006) interpolation of precision between thresholds, as Keras does."""
    dtp = tp[:-1] - tp[1:]
    p = tp + fp
    dp = p[:-1] - p[1:]
    slope = _no_nan(dtp, jnp.maximum(dp, 0))
    intercept = tp[1:] - slope * p[1:]
    both_positive = (p[:-1] > 0) & (p[1:] > 0)
    ratio = jnp.where(both_positive, _no_nan(p[:-1], jnp.maximum(p[1:], 0)), jnp.ones_like(p[1:]))
    increments = _no_nan(slope * (dtp + intercept * jnp.log(ratio)), jnp.maximum(tp[1:] + fn[1:], 0))
    return jnp.sum(increments)


class AUC(Metric):
    """Area under the ROC (or PR) curve, TensorFlow's ``tf.keras.metrics.AUC``.

    Counts true/false positives/negatives at ``num_thresholds`` evenly spaced thresholds
    (``0 - 1e-7``, ``1/(n-1)``, ..., ``1 + 1e-7``) and sums the curve by linear
    interpolation between them (Keras's default ``summation_method='interpolation'``).

    Args:
        num_thresholds: the number of thresholds, more than 1 (default 200).
        curve: ``'ROC'`` or ``'PR'``.

    Example:
        >>> import companion as tf
        >>> auc = tf.keras.metrics.AUC(num_thresholds=3)
        >>> print(auc([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9]))
        companion.Tensor(0.75, shape=(), dtype=float32)
    """

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None,
                 dtype=None, thresholds=None, multi_label=False, from_logits=False):
        super().__init__(name=name, dtype=dtype)
        _check_options(num_thresholds, curve, summation_method, thresholds, multi_label, from_logits)
        self.num_thresholds = int(num_thresholds)
        self.curve = curve.upper()
        self.summation_method = summation_method
        inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self.thresholds = [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]
        size = (self.num_thresholds,)
        self.true_positives = self.add_weight("true_positives", shape=size)
        self.false_positives = self.add_weight("false_positives", shape=size)
        self.true_negatives = self.add_weight("true_negatives", shape=size)
        self.false_negatives = self.add_weight("false_negatives", shape=size)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Counts this batch at every threshold (labels cast to bool, scores in [0, 1])."""
        tp, fp, tn, fn = confusion_counts(y_true, y_pred, sample_weight, self.thresholds, None,
                                          self._dtype, self.name)
        self.true_positives.assign_add(tp)
        self.false_positives.assign_add(fp)
        self.true_negatives.assign_add(tn)
        self.false_negatives.assign_add(fn)

    def result(self):
        return _auc(self.true_positives, self.false_positives, self.true_negatives,
                    self.false_negatives, curve=self.curve)

    def get_config(self):
        return {**super().get_config(), "num_thresholds": self.num_thresholds, "curve": self.curve,
                "summation_method": self.summation_method}


def _check_options(num_thresholds, curve, summation_method, thresholds, multi_label, from_logits):
    if int(num_thresholds) <= 1:
        raise ValueError(f"AUC: num_thresholds must be more than 1. Received: "
                         f"num_thresholds={num_thresholds}")
    if str(curve).upper() not in ("ROC", "PR"):
        raise ValueError(f"AUC: curve must be 'ROC' or 'PR'. Received: curve={curve!r}")
    unsupported = {"summation_method": summation_method != "interpolation",
                   "thresholds": thresholds is not None, "multi_label": bool(multi_label),
                   "from_logits": bool(from_logits)}
    for option, used in unsupported.items():
        if used:
            raise NotImplementedError(f"AUC: {option} other than its default is not supported yet. "
                                      "Use the defaults (interpolation over evenly spaced thresholds).")

"""`AUC`: the area under the ROC or precision-recall curve, from counts at fixed thresholds."""

import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._array import broadcast_to, reshape
from companion._ops._math import sigmoid
from companion.keras.losses._loss_inputs import check_broadcastable, float_tensor
from companion.keras.metrics._confusion_counts import confusion_counts
from companion.keras.metrics._metric import Metric

_EPSILON = 1e-7


def _no_nan(x, y):
    return jnp.where(y == 0, 0, x / jnp.where(y == 0, 1, y))


@op("keras_auc", static=("curve", "summation", "multi_label", "weighted"))
def _auc(tp, fp, tn, fn, label_weights, curve, summation, multi_label, weighted):
    """Keras 3's ``AUC.result`` over thresholds in increasing order (per label when ``multi_label``)."""
    if curve == "PR" and summation == "interpolation":
        return _combine_labels(_interpolated_pr_auc(tp, fp, fn), label_weights if weighted else None,
                               multi_label)
    recall = _no_nan(tp, tp + fn)
    if curve == "ROC":
        x, y = _no_nan(fp, fp + tn), recall
    elif curve == "PR":
        x, y = recall, _no_nan(tp, tp + fp)
    else:  # PRGAIN
        scale = _no_nan(tp + fn, tn + fp)
        recall_gain = jnp.where(tp == 0, 0.0, 1.0 - scale * _no_nan(fn, tp))
        precision_gain = jnp.where(tp == 0, 1.0, 1.0 - scale * _no_nan(fp, tp))
        x, y = jnp.maximum(recall_gain, 0.0), precision_gain
    if summation == "interpolation":
        heights = (y[:-1] + y[1:]) / 2
    elif summation == "minoring":
        heights = jnp.minimum(y[:-1], y[1:])
    else:
        heights = jnp.maximum(y[:-1], y[1:])
    return _combine_labels((x[:-1] - x[1:]) * heights, label_weights if weighted else None, multi_label)


def _combine_labels(terms, label_weights, multi_label):
    if not multi_label:
        return jnp.sum(terms)
    by_label = jnp.sum(terms, axis=0)
    if label_weights is None:
        return jnp.mean(by_label)
    return _no_nan(jnp.sum(by_label * label_weights), jnp.sum(label_weights))


@op("keras_label_confusion_counts", static=("thresholds",))
def _label_counts(y_true, y_pred, weights, thresholds):
    """(tp, fp, tn, fn) per threshold and label (``[thresholds, labels]``) for rank-2 inputs."""
    t = jnp.asarray(thresholds, y_pred.dtype)[:, None, None]
    predicted = y_pred[None] > t
    actual = jnp.broadcast_to(y_true != 0, y_pred.shape)[None]
    w = jnp.broadcast_to(weights, y_pred.shape)[None]
    count = lambda mask: jnp.sum(jnp.where(mask, w, 0), axis=1)  # noqa: E731
    return count(predicted & actual), count(predicted & ~actual), count(~predicted & ~actual), \
        count(~predicted & actual)


def _interpolated_pr_auc(tp, fp, fn):
    """Davis & Goadrich (2006) interpolation of precision between thresholds, as Keras does."""
    dtp = tp[:-1] - tp[1:]
    p = tp + fp
    dp = p[:-1] - p[1:]
    slope = _no_nan(dtp, jnp.maximum(dp, 0))
    intercept = tp[1:] - slope * p[1:]
    both_positive = (p[:-1] > 0) & (p[1:] > 0)
    ratio = jnp.where(both_positive, _no_nan(p[:-1], jnp.maximum(p[1:], 0)), jnp.ones_like(p[1:]))
    return _no_nan(slope * (dtp + intercept * jnp.log(ratio)), jnp.maximum(tp[1:] + fn[1:], 0))


class AUC(Metric):
    """Area under the ROC, precision-recall or PR-gain curve, TensorFlow's ``tf.keras.metrics.AUC``.

    Counts true/false positives/negatives at ``num_thresholds`` evenly spaced thresholds
    (``0 - 1e-7``, ``1/(n-1)``, ..., ``1 + 1e-7``; or ``thresholds`` between the two ends) and sums
    the curve between them by ``summation_method`` (``'interpolation'``, ``'minoring'`` or
    ``'majoring'``), per label with ``multi_label`` (then averaged, weighted by ``label_weights``).

    Example:
        >>> import companion as tf
        >>> auc = tf.keras.metrics.AUC(num_thresholds=3)
        >>> print(auc([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9]))
        companion.Tensor(0.75, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation", name=None,
                 dtype=None, thresholds=None, multi_label=False, num_labels=None, label_weights=None,
                 from_logits=False):
        curve, summation_method = _check_options(num_thresholds, curve, summation_method, thresholds,
                                                 multi_label, num_labels)
        super().__init__(name=name, dtype=dtype)
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            inner = sorted(float(t) for t in thresholds)
            self.num_thresholds = len(inner) + 2
        else:
            self.num_thresholds = int(num_thresholds)
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self.thresholds = [0.0 - _EPSILON] + inner + [1.0 + _EPSILON]
        self.curve, self.summation_method = curve, summation_method
        self.multi_label, self.num_labels = bool(multi_label), num_labels
        self.label_weights = None if label_weights is None else as_input(label_weights, self._dtype)
        self._from_logits = bool(from_logits)
        self._built = False
        if not self.multi_label:
            self._make_counts((self.num_thresholds,))
        elif num_labels:
            self._make_counts((self.num_thresholds, int(num_labels)))

    def _make_counts(self, shape):
        self.true_positives = self.add_weight(name="true_positives", shape=shape)
        self.false_positives = self.add_weight(name="false_positives", shape=shape)
        self.true_negatives = self.add_weight(name="true_negatives", shape=shape)
        self.false_negatives = self.add_weight(name="false_negatives", shape=shape)
        self._built = True

    def _build_for_shapes(self, y_true_shape, y_pred_shape):
        """With ``multi_label`` and no ``num_labels``: one column of counts per label of ``y_pred``."""
        if self._built:
            return
        shape = list(y_pred_shape)
        if len(shape) != 2:
            raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found rank {len(shape)}. "
                             f"Full shape received for `y_pred`: {tuple(shape)}")
        self._make_counts((self.num_thresholds, int(shape[1])))

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Counts this batch at every threshold (labels cast to bool, scores in [0, 1])."""
        y_pred = as_input(y_pred)
        self._build_for_shapes(None, y_pred.shape)
        if self._from_logits:
            y_pred = sigmoid(y_pred)
        if self.multi_label:
            counts = _multi_label_counts(y_true, y_pred, sample_weight, self.thresholds, self._dtype,
                                         self.name)
        else:
            weights, labels = sample_weight, self.label_weights
            if labels is not None:
                weights = _label_weighted(weights, labels, y_pred)
            counts = confusion_counts(y_true, y_pred, weights, self.thresholds, None, self._dtype, self.name)
        for variable, count in zip((self.true_positives, self.false_positives, self.true_negatives,
                                    self.false_negatives), counts):
            variable.assign_add(count)

    def result(self):
        if not self._built:
            raise ValueError(f"{self.name}: result() before any update_state(): with multi_label, the number "
                             "of labels comes from the first batch (or pass num_labels).")
        weighted = self.multi_label and self.label_weights is not None
        weights = self.label_weights if weighted else as_input(0.0, self._dtype)
        return _auc(self.true_positives, self.false_positives, self.true_negatives, self.false_negatives,
                    weights, curve=self.curve, summation=self.summation_method, multi_label=self.multi_label,
                    weighted=weighted)

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        labels = None if self.label_weights is None else self.label_weights.numpy().tolist()
        config = {**super().get_config(), "num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": self.multi_label,
                  "num_labels": self.num_labels, "label_weights": labels, "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = [np.float64(t) for t in self.thresholds[1:-1]]  # as Keras's array gives
        return config


def _multi_label_counts(y_true, y_pred, sample_weight, thresholds, dtype, name):
    y_pred = float_tensor(as_input(y_pred), dtype)
    y_true = as_input(y_true)
    check_broadcastable(y_true, y_pred, name)
    weights = as_input(1.0 if sample_weight is None else sample_weight, dtype)
    if weights.ndim == 1:
        weights = reshape(weights, [-1, 1])
    return _label_counts(y_true, y_pred, weights, thresholds=tuple(float(t) for t in thresholds))


def _label_weighted(sample_weight, label_weights, y_pred):
    """Per-entry weights: each example's weight times its label's (Keras flattens them together)."""
    full = broadcast_to(label_weights, y_pred.shape.as_list())
    if sample_weight is None:
        return full
    weights = as_input(sample_weight, label_weights.dtype)
    if weights.ndim == 1 and y_pred.ndim == 2:
        weights = reshape(weights, [-1, 1])
    return weights * full


def _check_options(num_thresholds, curve, summation_method, thresholds, multi_label, num_labels):
    if thresholds is None and int(num_thresholds) <= 1:
        raise ValueError(f"Argument `num_thresholds` must be an integer > 1. Received: "
                         f"num_thresholds={num_thresholds}")
    curve_name = str(getattr(curve, "value", curve)).upper()
    if curve_name not in ("ROC", "PR", "PRGAIN"):
        raise ValueError(f'Invalid AUCCurve value: "{curve}". Expected values are ["PR", "ROC", "PRGAIN"]')
    method = str(getattr(summation_method, "value", summation_method)).lower()
    if method not in ("interpolation", "minoring", "majoring"):
        raise ValueError(f'Invalid AUCSummationMethod value: "{summation_method}". Expected values are '
                         '["interpolation", "majoring", "minoring"]')
    if num_labels and not multi_label:
        raise ValueError("`num_labels` is needed only when `multi_label` is True.")
    return curve_name, method

"""Weighted true/false positive/negative counts at decision thresholds, shared by Precision, Recall, AUC."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._nn import shape_of
from companion.keras.losses._loss_inputs import check_broadcastable, float_tensor, squeeze_or_expand
from companion.keras.metrics._reduce import _weights


@op("keras_confusion_counts", static=("thresholds",))
def _confusion_counts(y_true, y_pred, weights, thresholds):
    """(tp, fp, tn, fn), each of shape ``(len(thresholds),)``; positive means ``y_pred > t``."""
    t = jnp.asarray(thresholds, y_pred.dtype)[:, None]
    predicted = y_pred.reshape(1, -1) > t
    actual = jnp.broadcast_to(y_true != 0, y_pred.shape).reshape(1, -1)
    w = jnp.broadcast_to(weights, y_pred.shape).reshape(1, -1)
    count = lambda mask: jnp.sum(jnp.where(mask, w, 0), axis=1)  # noqa: E731
    return count(predicted & actual), count(predicted & ~actual), count(~predicted & ~actual), \
        count(~predicted & actual)


def confusion_counts(y_true, y_pred, sample_weight, thresholds, class_id, dtype, metric_name):
    """Converts and checks the inputs (Keras's rules), then counts at each threshold."""
    y_pred = float_tensor(as_input(y_pred), dtype)
    y_true = as_input(y_true)
    y_pred, y_true = squeeze_or_expand(y_pred, y_true)
    check_broadcastable(y_true, y_pred, metric_name)
    if class_id is not None:
        y_true, y_pred = y_true[..., class_id], y_pred[..., class_id]
    weights, trailing = _weights(sample_weight, y_pred, dtype, metric_name)
    if trailing:
        raise ValueError(f"{metric_name}: sample_weight of shape {shape_of(weights)} does not broadcast to "
                         f"y_pred of shape {shape_of(y_pred)}. Pass weights shaped like y_pred, or one "
                         "per example.")
    return _confusion_counts(y_true, y_pred, weights, thresholds=tuple(float(t) for t in thresholds))

"""`R2Score`: the coefficient of determination of regression outputs, accumulated over batches
(per output, or averaged), as Keras 3 computes it."""

import warnings

from companion._core._convert import as_input
from companion._ops import _math, _reduce
from companion._ops._array import broadcast_to, expand_dims, size
from companion._ops._select import where
from companion.keras.losses._loss_inputs import squeeze_or_expand
from companion.keras.metrics._metric import Metric, output_dim


class R2Score(Metric):
    """``1 - sum((y - y_pred)**2) / sum((y - mean(y))**2)`` per output column of 2-D inputs, then
    averaged (``class_aggregation='uniform_average'``), weighted by each column's variance
    (``'variance_weighted_average'``) or kept per column (None). With ``num_regressors`` p > 0, the
    adjusted score ``1 - (1 - R2) (n - 1) / (n - p - 1)`` (n: the number of values seen).

    Example:
        >>> import companion as tf
        >>> round(float(tf.keras.metrics.R2Score()([[1.0], [4.0], [3.0]], [[2.0], [4.0], [4.0]])), 4)
        0.5714
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        allowed = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in allowed:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of {allowed}. "
                             f"Received: class_aggregation={class_aggregation!r}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value >= 0. Received: "
                             f"num_regressors={num_regressors!r}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_weight(name="num_samples")
        self._built = False

    def _build_for_shapes(self, y_true_shape, y_pred_shape):
        if self._built:
            return
        outputs = (output_dim("R2Score", y_true_shape, y_pred_shape),)
        self.squared_sum = self.add_weight(name="squared_sum", shape=outputs)
        self.sum = self.add_weight(name="sum", shape=outputs)
        self.total_mse = self.add_weight(name="residual", shape=outputs)
        self.count = self.add_weight(name="count", shape=outputs)
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = as_input(y_true, self._dtype), as_input(y_pred, self._dtype)
        y_pred, y_true = squeeze_or_expand(y_pred, y_true)
        self._build_for_shapes(y_true.shape, y_pred.shape)
        weight = as_input(1.0 if sample_weight is None else sample_weight, self._dtype)
        if weight.ndim == 1:
            weight = expand_dims(weight, 1)
        weight = broadcast_to(weight, y_true.shape)
        weighted = y_true * weight
        self.sum.assign_add(_reduce.reduce_sum(weighted, axis=0))
        self.squared_sum.assign_add(_reduce.reduce_sum(y_true * weighted, axis=0))
        self.total_mse.assign_add(_reduce.reduce_sum(_math.square(y_true - y_pred) * weight, axis=0))
        self.count.assign_add(_reduce.reduce_sum(weight, axis=0))
        self.num_samples.assign_add(_math.cast(size(y_true), self._dtype))

    def result(self):
        if not self._built:
            raise ValueError("R2Score: result() before any update_state(): the number of outputs comes from "
                             "the first batch.")
        mean = self.sum / self.count
        total = self.squared_sum - self.sum * mean
        raw = 1 - self.total_mse / total
        raw = where(_math.is_inf(raw), _math.cast(0.0, raw.dtype) * raw, raw)
        if self.class_aggregation == "uniform_average":
            score = _reduce.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = _reduce.reduce_sum(total * raw) / _reduce.reduce_sum(total)
        else:
            score = raw
        if self.num_regressors == 0:
            return score
        n, p = self.num_samples.value(), float(self.num_regressors)
        if not n.is_traced and p >= float(n) - 1:
            warnings.warn("More independent predictors than datapoints in adjusted R2 score. Falling back "
                          "to standard R2 score." if p > float(n) - 1 else
                          "Division by zero in Adjusted R2 score. Falling back to standard R2 score.",
                          stacklevel=2)
            return score
        return 1.0 - (1.0 - score) * (n - 1.0) / (n - p - 1.0)

    def reset_state(self):
        self.num_samples.assign(0.0)
        if self._built:
            for variable in (self.squared_sum, self.sum, self.total_mse, self.count):
                variable.assign(variable * 0)

    def get_config(self):
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}

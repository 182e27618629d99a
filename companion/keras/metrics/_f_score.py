"""`FBetaScore` and `F1Score`: the F-score of (multi-class or multi-label) predictions per class, or
averaged ('micro', 'macro', 'weighted'), from accumulated soft counts as Keras 3 keeps them."""

from companion._core._convert import as_input
from companion._ops import _math, _reduce
from companion._ops._array import expand_dims
from companion.keras.backend._config import epsilon
from companion.keras.metrics._metric import Metric, output_dim


class FBetaScore(Metric):
    """``(1 + beta**2) * precision * recall / (beta**2 * precision + recall)`` per class, from the
    true/false positive and false negative counts of 2-D ``(batch, classes)`` inputs.

    Predictions count as positive where they equal the row's maximum (``threshold=None``) or exceed
    ``threshold``. ``average``: None (one score per class), ``'micro'`` (counts pooled over
    classes), ``'macro'`` (mean over classes) or ``'weighted'`` (weighted by each class's labels).

    Example:
        >>> import companion as tf
        >>> metric = tf.keras.metrics.F1Score(threshold=0.5)
        >>> metric([[1, 0], [0, 1], [1, 1]], [[0.9, 0.2], [0.3, 0.6], [0.4, 0.8]]).numpy().round(4)
        array([0.6667, 1.    ], dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                             f"'weighted'}}. Received: average={average!r}")
        if not isinstance(beta, float) or beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float > 0. Received: "
                             f"beta={beta!r}")
        if threshold is not None and (not isinstance(threshold, float) or not 0.0 < threshold <= 1.0):
            raise ValueError("Invalid `threshold` argument value. It should be a Python float with "
                             f"0 < threshold <= 1. Received: threshold={threshold!r}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build_for_shapes(self, y_true_shape, y_pred_shape):
        """Creates the count variables (one per class unless 'micro') from the inputs' shapes."""
        if self._built:
            return
        classes = output_dim("FBetaScore", y_true_shape, y_pred_shape)
        shape = () if self.average == "micro" else (classes,)
        self.true_positives = self.add_weight(name="true_positives", shape=shape)
        self.false_positives = self.add_weight(name="false_positives", shape=shape)
        self.false_negatives = self.add_weight(name="false_negatives", shape=shape)
        self.intermediate_weights = self.add_weight(name="intermediate_weights", shape=shape)
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = as_input(y_true, self._dtype), as_input(y_pred, self._dtype)
        self._build_for_shapes(y_true.shape, y_pred.shape)
        if self.threshold is None:
            top = _reduce.reduce_max(y_pred, axis=-1, keepdims=True)
            predicted = _math.logical_and(y_pred >= top, _math.abs(y_pred) > 1e-9)
        else:
            predicted = y_pred > self.threshold
        predicted = _math.cast(predicted, self._dtype)
        weight = None if sample_weight is None else expand_dims(as_input(sample_weight, self._dtype), 1)

        def summed(value):
            return _reduce.reduce_sum(value if weight is None else value * weight, axis=self.axis)

        self.true_positives.assign_add(summed(predicted * y_true))
        self.false_positives.assign_add(summed(predicted * (1 - y_true)))
        self.false_negatives.assign_add(summed((1 - predicted) * y_true))
        self.intermediate_weights.assign_add(summed(y_true))

    def result(self):
        if not self._built:
            raise ValueError(f"{type(self).__name__}: result() before any update_state(): the number of "
                             "classes comes from the first batch.")
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        precision = tp / (tp + fp + epsilon())
        recall = tp / (tp + fn + epsilon())
        score = precision * recall / (self.beta ** 2 * precision + recall + epsilon()) * (1 + self.beta ** 2)
        if self.average == "weighted":
            weights = self.intermediate_weights / (_reduce.reduce_sum(self.intermediate_weights) + epsilon())
            return _reduce.reduce_sum(score * weights)
        if self.average is not None:
            return _reduce.reduce_mean(score)
        return score

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """`FBetaScore` with ``beta=1``: the harmonic mean of precision and recall."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config

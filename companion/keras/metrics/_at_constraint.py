"""The best value of one confusion rate while another meets a floor: `SensitivityAtSpecificity`,
`SpecificityAtSensitivity`, `PrecisionAtRecall`, `RecallAtPrecision` (Keras 3's thresholds and
formulas: counts at evenly spaced thresholds from 0 to 1, the maximum over the feasible ones)."""

import jax.numpy as jnp

from companion._core._op import op
from companion.keras.metrics._confusion_counts import confusion_counts
from companion.keras.metrics._metric import Metric


def _rate(part, other):
    total = part + other
    return jnp.where(total == 0, 0, part / jnp.where(total == 0, 1, total))


@op("keras_best_under_constraint", static=("kind", "floor"))
def _best(tp, fp, tn, fn, kind, floor):
    sensitivity, specificity = _rate(tp, fn), _rate(tn, fp)
    precision = _rate(tp, fp)
    constrained, dependent = {"sensitivity_at_specificity": (specificity, sensitivity),
                              "specificity_at_sensitivity": (sensitivity, specificity),
                              "precision_at_recall": (sensitivity, precision),
                              "recall_at_precision": (precision, sensitivity)}[kind]
    return jnp.max(jnp.where(constrained >= floor, dependent, 0), initial=0).astype(tp.dtype)


class _BestUnderConstraint(Metric):
    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)
    _kind, _argument = None, None

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if not 0 <= value <= 1:
            raise ValueError(f"Argument `{self._argument}` must be in the range [0, 1]. "
                             f"Received: {self._argument}={value}")
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        super().__init__(name=name, dtype=dtype)
        self.value, self.class_id, self.num_thresholds = value, class_id, int(num_thresholds)
        setattr(self, self._argument, value)
        if num_thresholds == 1:
            self.thresholds = [0.5]
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds = [0.0] + inner + [1.0]
        size = (len(self.thresholds),)
        self.true_positives = self.add_weight(name="true_positives", shape=size)
        self.false_positives = self.add_weight(name="false_positives", shape=size)
        self.true_negatives = self.add_weight(name="true_negatives", shape=size)
        self.false_negatives = self.add_weight(name="false_negatives", shape=size)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Counts this batch at every threshold (labels cast to bool, scores in [0, 1])."""
        tp, fp, tn, fn = confusion_counts(y_true, y_pred, sample_weight, self.thresholds, self.class_id,
                                          self._dtype, self.name)
        self.true_positives.assign_add(tp)
        self.false_positives.assign_add(fp)
        self.true_negatives.assign_add(tn)
        self.false_negatives.assign_add(fn)

    def result(self):
        return _best(self.true_positives, self.false_positives, self.true_negatives, self.false_negatives,
                     kind=self._kind, floor=float(self.value))

    def get_config(self):
        return {**super().get_config(), "class_id": self.class_id, "num_thresholds": self.num_thresholds,
                self._argument: self.value}


class SensitivityAtSpecificity(_BestUnderConstraint):
    """The best sensitivity (recall) over the thresholds whose specificity is at least ``specificity``.

    Example:
        >>> import companion as tf
        >>> m = tf.keras.metrics.SensitivityAtSpecificity(0.5)
        >>> print(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """

    _kind, _argument = "sensitivity_at_specificity", "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds, class_id, name, dtype)


class SpecificityAtSensitivity(_BestUnderConstraint):
    """The best specificity over the thresholds whose sensitivity is at least ``sensitivity``."""

    _kind, _argument = "specificity_at_sensitivity", "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)


class PrecisionAtRecall(_BestUnderConstraint):
    """The best precision over the thresholds whose recall is at least ``recall``."""

    _kind, _argument = "precision_at_recall", "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds, class_id, name, dtype)


class RecallAtPrecision(_BestUnderConstraint):
    """The best recall over the thresholds whose precision is at least ``precision``."""

    _kind, _argument = "recall_at_precision", "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name, dtype)

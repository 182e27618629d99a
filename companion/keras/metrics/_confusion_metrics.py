"""`TruePositives`, `FalsePositives`, `TrueNegatives`, `FalseNegatives`: weighted counts at thresholds."""

from companion.keras.metrics._confusion_counts import confusion_counts
from companion.keras.metrics._metric import Metric
from companion.keras.metrics._precision_recall import _thresholds


class _ConfusionCount(Metric):
    """One of the four counts (``_index`` into tp, fp, tn, fn), one per threshold; a prediction is
    positive above the threshold, a label when it is not 0."""

    _index = 0

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = _thresholds(thresholds, type(self).__name__)
        self.accumulator = self.add_weight(name="accumulator", shape=(len(self.thresholds),))

    def update_state(self, y_true, y_pred, sample_weight=None):
        counts = confusion_counts(y_true, y_pred, sample_weight, self.thresholds, None, self._dtype,
                                  self.name)
        self.accumulator.assign_add(counts[self._index])

    def result(self):
        value = self.accumulator.value()
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


def _count(class_name, index, what):
    def __init__(self, thresholds=None, name=None, dtype=None):  # unnamed: 'true_positives', '..._1'
        _ConfusionCount.__init__(self, thresholds, name=name, dtype=dtype)

    return type(class_name, (_ConfusionCount,), {
        "__init__": __init__, "__module__": __name__, "_index": index,
        "__doc__": f"The weighted number of {what} at each threshold (default 0.5), TF's "
                   f"``tf.keras.metrics.{class_name}``."})


TruePositives = _count("TruePositives", 0, "true positives")
FalsePositives = _count("FalsePositives", 1, "false positives")
TrueNegatives = _count("TrueNegatives", 2, "true negatives")
FalseNegatives = _count("FalseNegatives", 3, "false negatives")

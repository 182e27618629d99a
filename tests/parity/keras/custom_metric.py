"""The course's F1Score metric: tp=2, fp=5, tn=7, fn=9."""
import tensorflow as tf


class F1Score(tf.keras.metrics.Metric):
    def __init__(self, name="f1_score", **kwargs):
        super().__init__(name=name, **kwargs)
        self.tp = tf.Variable(0, dtype="int32")
        self.fp = tf.Variable(0, dtype="int32")
        self.tn = tf.Variable(0, dtype="int32")
        self.fn = tf.Variable(0, dtype="int32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        pass

    def result(self):
        precision = self.tp / (self.tp + self.fp)
        recall = self.tp / (self.tp + self.fn)
        return 2 * ((precision * recall) / (precision + recall))

    def reset_state(self):
        for v in (self.tp, self.fp, self.tn, self.fn):
            v.assign(0)

m = F1Score()
m.tp.assign(2)
m.fp.assign(5)
m.tn.assign(7)
m.fn.assign(9)
r = m.result()
print(r.dtype, round(float(r), 6))
print(m.name)

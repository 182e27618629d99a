"""Top-k accuracies, confusion counts and loss-valued metrics, with sample weights."""
import numpy as np
import tensorflow as tf

M = tf.keras.metrics
rng = np.random.default_rng(0)
yb = rng.integers(0, 2, (6, 3)).astype("float32")
pb = rng.uniform(size=(6, 3)).astype("float32")
logits = rng.normal(size=(6, 4)).astype("float32")
yi = rng.integers(0, 4, 6)
yoh = np.eye(4, dtype="float32")[yi]
sw = np.array([1, 0.5, 0, 2, 1, 1], "float32")


def run(metric, *batches):
    for batch in batches:
        metric.update_state(*batch)
    return np.round(metric.result().numpy(), 4).tolist()


print(run(M.TopKCategoricalAccuracy(k=2), (yoh, logits), (yoh, -logits, sw)))
print(run(M.SparseTopKCategoricalAccuracy(k=3), (yi, logits)))
print(run(M.SparseTopKCategoricalAccuracy(k=1), (yi[:, None], logits, sw)))
print(run(M.TopKCategoricalAccuracy(k=1), ([[0, 1, 0]], [[0.5, 0.5, 0.0]])))
for cls in [M.TruePositives, M.FalsePositives, M.TrueNegatives, M.FalseNegatives]:
    print(cls.__name__, run(cls(), (yb, pb)), run(cls(thresholds=[0.2, 0.7]), (yb, pb, sw[:, None])))
print(run(M.CategoricalCrossentropy(from_logits=True), (yoh, logits)))
print(run(M.SparseCategoricalCrossentropy(from_logits=True), (yi, logits)))
for cls in [M.KLDivergence, M.Poisson, M.LogCoshError, M.MeanAbsolutePercentageError,
            M.MeanSquaredLogarithmicError, M.Hinge, M.SquaredHinge, M.CategoricalHinge, M.CosineSimilarity]:
    print(cls.__name__, cls().name, run(cls(), (yb + 0.1, pb + 0.1, sw)))

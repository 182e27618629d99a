"""Keras's other losses: MAPE, MSLE, LogCosh, Poisson, KLD, hinges, cosine; names and reductions."""
import numpy as np
import tensorflow as tf

L = tf.keras.losses
yt = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]], np.float32)
yp = np.array([[0.3, 0.8, -0.2], [0.6, 1.5, 0.1]], np.float32)
pos = np.abs(yp) + 0.1
cases = [(L.Hinge, yt, yp), (L.SquaredHinge, yt, yp), (L.CategoricalHinge, yt, yp),
         (L.CosineSimilarity, yt, yp), (L.KLDivergence, yt / 2, pos / pos.sum(-1, keepdims=True)),
         (L.Poisson, yt, pos), (L.LogCosh, yt, yp), (L.MeanAbsolutePercentageError, yt + 1, yp),
         (L.MeanSquaredLogarithmicError, yt, pos)]
for cls, a, b in cases:
    loss = cls()
    print(cls.__name__, loss.name, round(float(loss(a, b)), 4),
          round(float(loss(a, b, sample_weight=[0.5, 2.0])), 4),
          np.round(cls(reduction="none")(a, b).numpy(), 4).tolist(),
          round(float(cls(reduction="sum")(a, b)), 4))
print(np.round(L.CosineSimilarity(axis=0)(yt, yp).numpy(), 4))
for name in ["mape", "msle", "kld", "log_cosh", "poisson", "hinge", "squared_hinge", "categorical_hinge"]:
    print(name, np.round(L.get(name)(yt + 1, pos).numpy(), 4).tolist())
print(L.CategoricalCrossentropy(reduction=None)(yt / 2, pos / pos.sum(-1, keepdims=True)).shape)

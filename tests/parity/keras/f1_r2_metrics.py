"""F1Score/FBetaScore (averages, thresholds, sample weights) and R2Score (aggregations, adjusted),
alone and compiled into models."""
import numpy as np
import tensorflow as tf

M = tf.keras.metrics
yt = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]], "float32")
yp = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.2, 0.6], [0.4, 0.5, 0.1], [0.3, 0.6, 0.1]],
              "float32")
for avg in (None, "micro", "macro", "weighted"):
    for thr in (None, 0.5):
        m = M.F1Score(average=avg, threshold=thr)
        m.update_state(yt[:3], yp[:3])
        m.update_state(yt[3:], yp[3:], sample_weight=[0.5, 2.0])
        print(avg, thr, np.round(m.result().numpy(), 5).tolist())
fb = M.FBetaScore(beta=2.0, average="macro")
print(round(float(fb(yt, yp)), 5), fb.get_config(), M.F1Score().get_config(), [v.name for v in fb.variables])
fb.reset_state()
print(round(float(fb(yt[:2], yp[:2])), 5))
rt = np.array([[1.0, 2.0], [4.0, 3.0], [3.0, 6.0], [5.0, 1.0]], "float32")
rp = np.array([[2.0, 2.5], [4.0, 3.5], [4.0, 5.0], [4.5, 2.0]], "float32")
for agg in ("uniform_average", "variance_weighted_average", None):
    r = M.R2Score(class_aggregation=agg)
    print(agg, np.round(r(rt, rp).numpy(), 5).tolist())
r = M.R2Score(num_regressors=1)
r.update_state(rt, rp, sample_weight=[1.0, 2.0, 1.0, 0.5])
print(round(float(r.result()), 5), r.get_config(), [v.name for v in r.variables])
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(3, activation="softmax", kernel_initializer="ones")])
model.compile("sgd", "categorical_crossentropy", metrics=[M.F1Score(average="macro"), "accuracy"])
print({k: round(v, 4) for k, v in model.evaluate(yp, yt, verbose=0, return_dict=True).items()})
reg = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(2, kernel_initializer="ones")])
reg.compile("sgd", "mse", metrics=[M.R2Score()])
print({k: round(v, 4) for k, v in reg.evaluate(rt, rp, verbose=0, return_dict=True).items()})

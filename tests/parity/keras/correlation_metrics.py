"""PearsonCorrelation and ConcordanceCorrelation: functions, running means, axis, configs."""
import numpy as np
import tensorflow as tf

M = tf.keras.metrics
yt = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 0.0, 5.0]], "float32")
yp = np.array([[2.0, 4.0, 7.0, 7.5], [1.0, 1.5, 0.5, 3.0]], "float32")
print(np.round(M.pearson_correlation(yt, yp).numpy(), 5).tolist())
print(np.round(M.concordance_correlation(yt, yp).numpy(), 5).tolist())
p = M.PearsonCorrelation()
p.update_state(yt, yp)
p.update_state(yt[:1], yp[:1] * -1)
print(round(float(p.result()), 5), p.get_config())
c = M.ConcordanceCorrelation(axis=0)
print(np.round(float(c(yt, yp)), 5), c.get_config())

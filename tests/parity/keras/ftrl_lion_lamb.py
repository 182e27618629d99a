"""Ftrl, Lion and Lamb: a few steps of a small regression, configs, by name, slot names; and the
base optimizer config keys of Keras 3."""
import numpy as np
import tensorflow as tf

opts = tf.keras.optimizers


def run(opt, steps=5):
    w, b = tf.Variable([[1.0, -2.0], [0.5, 3.0]]), tf.Variable([0.1, -0.3])
    x = tf.constant([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7]])
    y = tf.constant([[1.0, 0.2], [0.3, 1.0], [0.5, 0.9]])
    for _ in range(steps):
        with tf.GradientTape() as t:
            loss = tf.reduce_mean((x @ w + b - y) ** 2)
        opt.apply_gradients(zip(t.gradient(loss, [w, b]), [w, b]))
    return np.round(w.numpy(), 5).tolist(), np.round(b.numpy(), 5).tolist()


regularized = opts.Ftrl(0.5, learning_rate_power=-0.3, initial_accumulator_value=0.2,
                        l1_regularization_strength=0.01, l2_regularization_strength=0.02,
                        l2_shrinkage_regularization_strength=0.05, beta=0.1)
for opt in [opts.Ftrl(0.1), regularized, opts.Lion(0.01), opts.Lion(0.05, beta_1=0.8, beta_2=0.95),
            opts.Lamb(0.1), opts.Lamb(0.05, beta_1=0.8, epsilon=1e-3)]:
    print(type(opt).__name__, run(opt))
print(sorted(k for k in opts.Ftrl().get_config() if k not in ("name",)))
print([opts.Ftrl(0.1).get_config()[k] for k in ("learning_rate_power", "initial_accumulator_value", "beta")])
print(opts.Lion().get_config()["beta_2"], opts.Lamb().get_config()["epsilon"], opts.AdamW().get_config())
print(type(opts.get("ftrl")).__name__, type(opts.get("lion")).__name__)
o, v = opts.Lion(), tf.Variable([1.0])
o.apply_gradients([(tf.constant([1.0]), v)])
print([x.name for x in o.variables])

"""GroupNormalization: groups, instance and layer forms, other axes, weights, configs, gradients, errors."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.default_rng(9)
x = tf.constant(rng.normal(size=(2, 3, 4, 6)).astype("float32") * 3 + 1)


def r(t):
    return np.round(t.numpy(), 4).tolist()


for kw in ({"groups": 2}, {"groups": 3, "epsilon": 0.1}, {"groups": -1}, {"groups": 1, "center": False},
           {"groups": 3, "axis": 1, "scale": False}):
    layer = L.GroupNormalization(**kw)
    y = layer(x)
    print(kw, r(y[0, 0, 0]), [w.name for w in layer.weights], round(float(tf.reduce_mean(y)), 4))
layer = L.GroupNormalization(groups=3, gamma_initializer=tf.keras.initializers.Constant(2.0),
                             beta_initializer="ones")
print(r(layer(x)[1, 2, 3]), sorted(k for k in layer.get_config() if k not in ("name", "dtype", "trainable")))
with tf.GradientTape() as t:
    t.watch(x)
    out = tf.reduce_sum(layer(x) * tf.range(6, dtype=tf.float32))
print(r(t.gradient(out, x)[0, 0, 0]))
for bad in (lambda: L.GroupNormalization(groups=4)(x), lambda: L.GroupNormalization(groups=12)(x)):
    try:
        bad()
    except ValueError:
        print("ValueError")

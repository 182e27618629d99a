"""keras.constraints: the projections, and optimizers applying them after each update."""
import numpy as np
import tensorflow as tf

C = tf.keras.constraints
w = tf.constant([[3.0, -1.0], [4.0, 0.5]])
for c in [C.MaxNorm(2.0), C.MaxNorm(1.0, axis=1), C.MinMaxNorm(1.0, 2.0, rate=0.5), C.NonNeg(),
          C.UnitNorm(), C.get("max_norm"), C.get({"class_name": "UnitNorm", "config": {"axis": 1}})]:
    print(type(c).__name__, c.get_config(), np.round(c(w).numpy(), 5).tolist())
layer = tf.keras.layers.Dense(2, kernel_initializer=tf.keras.initializers.Constant([[3.0, -1.0], [4.0, 0.5]]),
                              kernel_constraint="non_neg", bias_constraint=C.MaxNorm(0.01))
x, y = tf.constant([[1.0, 2.0]]), tf.constant([[0.0, 5.0]])
opt = tf.keras.optimizers.SGD(0.1)
for _ in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((layer(x) - y) ** 2)
    opt.apply_gradients(zip(tape.gradient(loss, layer.trainable_variables), layer.trainable_variables))
    print(np.round(layer.kernel.numpy(), 5).tolist(), np.round(layer.bias.numpy(), 5).tolist())
v = tf.Variable([1.0, -2.0], constraint=lambda t: tf.clip_by_value(t, 0.0, 1.5))
tf.keras.optimizers.SGD(1.0).apply_gradients([(tf.constant([-1.0, -1.0]), v)])
print(v.numpy())
m = tf.keras.Sequential([tf.keras.layers.Input((2,)),
                         tf.keras.layers.Dense(3, kernel_constraint=C.UnitNorm(), kernel_initializer="ones")])
m.compile("adam", "mse")
m.fit(np.ones((8, 2), "float32"), np.zeros((8, 3), "float32"), epochs=1, verbose=0)
print(np.round(np.linalg.norm(m.layers[0].kernel.numpy(), axis=0), 4))

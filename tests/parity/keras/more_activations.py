"""Keras 3's further activations: values, by name in a layer, and gradients (ties as TF)."""
import numpy as np
import tensorflow as tf

A = tf.keras.activations
x = tf.constant([-3.0, -1.5, -0.5, 0.0, 0.3, 0.7, 1.5, 4.0, 7.0])
NAMES = ["relu6", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "mish", "celu", "sparse_plus",
         "sparse_sigmoid", "squareplus", "soft_shrink", "hard_shrink", "tanh_shrink", "softsign",
         "exponential", "log_sigmoid", "log_softmax", "sparsemax", "elu", "selu", "gelu", "silu", "swish"]
for name in NAMES:
    print(name, np.round(A.get(name)(x).numpy(), 5).tolist())
print(np.round(A.glu(tf.reshape(x[:8], [2, 4])).numpy(), 5).tolist())
print(np.round(A.sparsemax(tf.constant([[1.0, 0.5, 0.0], [0.1, 0.2, 3.0]])).numpy(), 5).tolist())
print(np.round(A.threshold(x, 0.5, -1.0).numpy(), 5).tolist())
print(np.round(A.celu(x, alpha=2.0).numpy(), 5).tolist())
print(np.round(A.relu(x, negative_slope=0.1, max_value=5.0).numpy(), 5).tolist())
print(np.round(A.leaky_relu(x, negative_slope=0.3).numpy(), 5).tolist())
print(np.round(A.squareplus(x, b=1).numpy(), 5).tolist())
print(np.round(A.soft_shrink(x, threshold=1.0).numpy(), 5).tolist())
dense = tf.keras.layers.Dense(2, activation="mish", kernel_initializer="ones")
print(np.round(dense(tf.constant([[0.5, -0.2]])).numpy(), 5).tolist(), dense.get_config()["activation"])
print(A.serialize(A.relu6), A.serialize(A.get("hard_swish")))
points = tf.constant([-1.0, 0.0, 1.0])
for name in ["mish", "hard_sigmoid", "celu", "sparse_plus", "sparse_sigmoid", "hard_silu", "hard_tanh",
             "relu6", "soft_shrink", "hard_shrink", "squareplus", "glu"]:
    with tf.GradientTape() as tape:
        tape.watch(points)
        y = tf.reduce_sum(A.glu(tf.stack([points, points], -1)) if name == "glu" else A.get(name)(points))
    print(name, np.round(tape.gradient(y, points).numpy(), 5).tolist())

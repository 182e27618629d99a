"""keras.regularizers.OrthogonalRegularizer: values, gradients (a zero row included), config, errors."""
import numpy as np
import tensorflow as tf

keras = tf.keras
w = np.array([[1.0, 2.0, 0.5], [-1.0, 0.5, 3.0], [0.0, 0.0, 0.0], [2.0, -1.0, 1.0]], "float32")
for mode in ["rows", "columns"]:
    reg = keras.regularizers.OrthogonalRegularizer(factor=0.2, mode=mode)
    v = tf.Variable(w)
    with tf.GradientTape() as tape:
        penalty = reg(v)
    print(mode, round(float(penalty), 6), reg.get_config())
    print(np.round(tape.gradient(penalty, v).numpy(), 5))
reg = keras.regularizers.OrthogonalRegularizer()
print(reg.get_config(), round(float(reg(tf.constant(w[:2]))), 7))
print(keras.regularizers.serialize(reg))
print(type(keras.regularizers.get({"class_name": "OrthogonalRegularizer",
                                   "config": {"factor": 0.5, "mode": "columns"}})).__name__)
print(type(keras.regularizers.get("orthogonal_regularizer")).__name__)
for bad in [dict(factor=-1.0), dict(mode="diag"), dict(factor="a")]:
    try:
        keras.regularizers.OrthogonalRegularizer(**bad)
    except ValueError:
        print("ValueError", bad)
for x in [tf.ones((2, 2, 2)), tf.constant(w, dtype="float64")]:
    try:
        reg(x)
    except (ValueError, tf.errors.InvalidArgumentError) as e:
        print(type(e).__name__)
dense = keras.layers.Dense(3, kernel_regularizer=keras.regularizers.OrthogonalRegularizer(0.1),
                           kernel_initializer="ones")
dense(tf.ones((1, 4)))
print([round(float(x), 6) for x in dense.losses])

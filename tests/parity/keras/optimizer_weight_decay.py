"""Keras 3's decoupled weight_decay on every optimizer (constant and scheduled learning rates),
exclude_from_weight_decay by name, AdamW's default, weight decay in fit."""
import numpy as np
import tensorflow as tf

schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5)
for opt in [tf.keras.optimizers.SGD(0.1, weight_decay=0.05), tf.keras.optimizers.Adam(0.1, weight_decay=0.01),
            tf.keras.optimizers.RMSprop(0.05, weight_decay=0.1, momentum=0.9), tf.keras.optimizers.AdamW(0.1),
            tf.keras.optimizers.SGD(schedule, weight_decay=0.2)]:
    w = tf.Variable([1.0, -2.0])
    b = tf.Variable([0.5])
    if type(opt).__name__ == "Adam":
        opt.exclude_from_weight_decay(var_names=["bias"])
    b_named = tf.Variable([0.5], name="bias")
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w) + tf.reduce_sum(b_named * 3.0)
        grads = tape.gradient(loss, [w, b_named])
        opt.apply_gradients(zip(grads, [w, b_named]))
    print(type(opt).__name__, np.round(w.numpy(), 6).tolist(), np.round(b_named.numpy(), 6).tolist(),
          opt.get_config()["weight_decay"])
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(tf.keras.optimizers.SGD(0.1, weight_decay=0.5), "mse")
model.fit(np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32), epochs=2, verbose=0, batch_size=2)
print(np.round(model.get_weights()[0].ravel(), 6).tolist())

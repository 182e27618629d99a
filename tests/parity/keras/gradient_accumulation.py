"""Keras 3's gradient_accumulation_steps: updates every N-th call with the average gradient (then
clipped), iterations counting updates, the accumulators among the optimizer's variables, and fit."""
import numpy as np
import tensorflow as tf

keras = tf.keras
for make in (lambda: keras.optimizers.SGD(0.1, gradient_accumulation_steps=2),
             lambda: keras.optimizers.Adam(0.1, gradient_accumulation_steps=3),
             lambda: keras.optimizers.SGD(0.1, momentum=0.9, gradient_accumulation_steps=2, clipnorm=1.0)):
    opt = make()
    w = tf.Variable([1.0, 2.0])
    for step in range(6):
        g = tf.constant([1.0 + step, -2.0 * step])
        opt.apply_gradients([(g, w)])
        print(step, np.round(w.numpy(), 5), int(opt.iterations.numpy()))
    print(len(opt.variables), [v.path if hasattr(v, "path") else v.name for v in opt.variables])
print(opt.get_config()["gradient_accumulation_steps"])
# in fit
keras.utils.set_random_seed(1)
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(keras.optimizers.SGD(0.05, gradient_accumulation_steps=2), "mse")
x = np.arange(16, dtype="float32").reshape(8, 2) / 10
y = x.sum(1, keepdims=True) * 0.5
h = model.fit(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False)
print([round(v, 4) for v in h.history["loss"]], np.round(model.get_weights()[0].ravel(), 4),
      int(model.optimizer.iterations.numpy()))

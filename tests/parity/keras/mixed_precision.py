"""Mixed precision (Keras 3): policies, layer dtypes, float16 outputs with float32 weights and
gradients, normalization in float32, losses in float32, and LossScaleOptimizer's dynamic scale
(growth after finite steps, a skipped step and a halved scale on an inf gradient)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
policy = keras.mixed_precision.Policy("mixed_bfloat16")
print(policy, policy.compute_dtype, policy.variable_dtype)
keras.mixed_precision.set_global_policy("mixed_float16")
print(keras.mixed_precision.global_policy().name)

x = np.linspace(-2.0, 2.0, 24, dtype="float32").reshape(4, 6)
dense = keras.layers.Dense(3, kernel_initializer=keras.initializers.RandomNormal(seed=1))
norm = keras.layers.LayerNormalization()
batch_norm = keras.layers.BatchNormalization()
head = keras.layers.Dense(2, dtype="float32", kernel_initializer=keras.initializers.RandomNormal(seed=2))
out = x
for layer in (dense, norm, batch_norm, head):
    out = layer(out)
    print(layer.dtype, layer.compute_dtype, layer.variable_dtype, layer.dtype_policy.name,
          out.dtype.name, [tf.as_dtype(w.dtype).name for w in layer.weights])
    print(np.round(tf.cast(out, tf.float32).numpy()[:2], 3) + 0.0)
print(np.round(out.numpy(), 3) + 0.0)
print(dense.get_config()["dtype"])
restored = keras.layers.Dense.from_config(dense.get_config())
print(restored.dtype_policy.name, restored.compute_dtype)

with tf.GradientTape() as tape:
    y = dense(x * 0.37)
    loss = tf.reduce_sum(tf.cast(y, tf.float32) ** 2)
grads = tape.gradient(loss, dense.trainable_weights)
print(y.dtype.name, [g.dtype.name for g in grads], np.round(grads[0].numpy(), 2))

scce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
print(scce(tf.constant([0, 1]), tf.constant([[2.0, 1.0], [0.5, 3.0]], tf.float16)).dtype.name)

opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=64.0,
                                          dynamic_growth_steps=2)
w = tf.Variable([1.0, -2.0])
for step in range(6):
    with tf.GradientTape() as tape:
        scaled = opt.scale_loss(tf.reduce_sum(w ** 2))
    grads = tape.gradient(scaled, [w])
    if step == 3:
        grads = [tf.constant([np.inf, 1.0])]
    opt.apply_gradients(zip(grads, [w]))
    print(step, round(float(scaled), 3), np.round(w.numpy(), 4), float(opt.dynamic_scale.numpy()),
          int(opt.iterations.numpy()))

sgd = keras.optimizers.SGD(0.5, loss_scale_factor=8.0)
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    scaled = sgd.scale_loss(v * v)
sgd.apply_gradients([(tape.gradient(scaled, v), v)])
print(float(scaled), float(v.numpy()))

model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, kernel_initializer="ones"),
                          keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile(keras.optimizers.SGD(0.01), "mse")
print(type(model.optimizer).__name__, type(model.optimizer.inner_optimizer).__name__,
      model.layers[0].compute_dtype)
keras.mixed_precision.set_global_policy("float32")
print(keras.layers.Dense(1).dtype_policy.name)

"""keras.ops functions on KerasTensors: Concatenate, Mean, Sum nodes in the summary."""
import numpy as np
import tensorflow as tf

ops = tf.keras.ops
x = tf.keras.Input((3,), name="features")
both = ops.concatenate([x, x * 2], axis=1)
mean, total = ops.mean(both, axis=1, keepdims=True), ops.sum(both, axis=1, keepdims=True)
stats = ops.concatenate([mean, total], axis=-1)
model = tf.keras.Model(x, stats)
print([layer.name for layer in model.layers])
model.summary()
print(model.predict(np.arange(6, dtype="float32").reshape(2, 3), verbose=0).tolist())

"""BatchNormalization in training and inference."""
import tensorflow as tf

bn = tf.keras.layers.BatchNormalization()
x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
print(bn(x, training=False))
print(bn(x, training=True))
print([w.name for w in bn.weights])
print([round(float(v), 5) for v in bn.moving_mean.numpy()],
      [round(float(v), 5) for v in bn.moving_variance.numpy()])
print(bn.momentum, bn.epsilon)

"""Division by a scalar is correctly rounded, as TF's kernels divide: pixel scaling, means, losses."""
import tensorflow as tf

pixels = tf.reshape(tf.range(48, dtype=tf.float32), [4, 12])
print(pixels / 255.0)
print(pixels / 100.0)
print(tf.divide(tf.range(10, dtype=tf.float32), 3.0))
print(tf.math.truediv(tf.range(10, dtype=tf.float64), tf.constant(7.0, tf.float64)))
print(tf.math.divide_no_nan(tf.range(8, dtype=tf.float32), tf.constant(10.0)))
print(tf.constant([[1.0, 2.0, 4.0], [3.0, 5.0, 7.0]]) / tf.constant([3.0, 7.0, 100.0]))
print(tf.reduce_mean(tf.constant([[0.1, 0.2, 0.4], [0.3, 0.7, 0.9]]), axis=1))
print(tf.reduce_mean(tf.constant([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])))


@tf.function
def scale(images):
    return tf.cast(images, tf.float32) / 255.0


print(scale(tf.constant([[0, 36, 92, 128, 200, 255]], tf.uint8)))
print(tf.nn.compute_average_loss(tf.constant([0.1, 0.2, 0.3]), global_batch_size=7))
mse = tf.keras.losses.MeanSquaredError()
print(mse(tf.constant([[0.0, 1.0, 2.0]]), tf.constant([[0.3, 0.5, 1.1]])))

"""segment_sum, unsorted_segment_sum/mean, bincount."""
import tensorflow as tf

data = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
print(tf.math.segment_sum(data, [0, 0, 1, 1, 2]))
print(tf.math.segment_mean(data, [0, 0, 1, 1, 2]))
print(tf.math.unsorted_segment_sum(data, [2, 0, 2, 1, 0], num_segments=3))
print(tf.math.unsorted_segment_max(data, [2, 0, 2, 1, 0], num_segments=3))
print(tf.math.bincount(tf.constant([1, 1, 3, 0, 3, 3])))
print(tf.math.bincount(tf.constant([1, 2]), minlength=5))

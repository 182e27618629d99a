import tensorflow as tf

print(tf.math.unsorted_segment_prod(tf.constant([2, 3]), [1, 1], 2))
print(tf.math.segment_prod(tf.constant([2, 3]), [0, 0]))
print(tf.math.segment_mean(tf.constant([-2, -3, 7]), [0, 0, 1]))
print(tf.math.unsorted_segment_mean(tf.constant([-2, -3, 7]), [0, 0, 1], 3))
a = tf.constant([[2.0, 1.0], [1.0, 3.0]])
for result in (tf.linalg.qr(a), tf.linalg.slogdet(a), tf.math.top_k([1, 3, 2], 2), tf.unique([1, 1, 2])):
    print(type(result).__name__, result._fields)
print(tf.linalg.slogdet(a))
print(tf.linalg.tensor_diag([1.0, 2.0]))
print(tf.linalg.tensor_diag([[1, 2], [3, 4]]).shape)
print(tf.math.l2_normalize([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], axis=1))

"""tf.sparse.segment_sum/mean/sqrt_n (eager, num_segments, tf.function, gradient) and
tf.sparse.maximum/minimum."""
import tensorflow as tf

c = tf.constant([[1.0, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]])
print(tf.sparse.segment_sum(c, tf.constant([0, 1]), tf.constant([0, 0])))
print(tf.sparse.segment_sum(c, [0, 1, 2], [0, 1, 1]))
print(tf.sparse.segment_sum(c, [0, 2], [0, 2]))
print(tf.sparse.segment_sum(c, [0, 1], [0, 2], num_segments=4))
print(tf.sparse.segment_mean(c, [0, 1, 2], [0, 0, 1]))
print(tf.sparse.segment_sqrt_n(c, [0, 1, 2], [0, 0, 0]))
print(tf.sparse.segment_sum(tf.constant([[1, 2], [3, 4]]), [0, 1, 1], [0, 0, 1]))
print(tf.function(lambda d: tf.sparse.segment_mean(d, [0, 1, 2], [0, 0, 1], num_segments=3))(c))
with tf.GradientTape() as tape:
    tape.watch(c)
    y = tf.reduce_sum(tf.sparse.segment_sqrt_n(c, [0, 1, 2, 0], [0, 0, 1, 1]) * tf.constant([[1.0], [2.0]]))
print(tf.convert_to_tensor(tape.gradient(y, c)))

a = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.0, -2.0], [2, 2])
b = tf.sparse.SparseTensor([[0, 0], [0, 1]], [3.0, 4.0], [2, 2])
print(tf.sparse.maximum(a, b))
print(tf.sparse.to_dense(tf.sparse.minimum(a, b)))

for label, fn in [
    ("mean int", lambda: tf.sparse.segment_mean(tf.constant([[1, 2]]), [0], [0])),
    ("index", lambda: tf.sparse.segment_sum(c, [0, 5], [0, 0])),
    ("order", lambda: tf.sparse.segment_sum(c, [0, 1], [1, 0])),
    ("sizes", lambda: tf.sparse.segment_sum(c, [0, 1], [0])),
]:
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        print(label, type(e).__name__)

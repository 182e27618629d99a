"""tf.nn additions: crelu, lrn, log_poisson_loss, sufficient statistics and moments, space/depth,
top_k/in_top_k/zero_fraction, atrous conv, pool, conv_transpose, TF 1's batch norm, sparse embedding
lookups (and their IndexedSlices gradient). Values rounded where XLA and TF's kernels differ by an ulp."""
import numpy as np
import tensorflow as tf


def r(value):
    """Rounded: XLA fuses multiply-adds (and orders window sums) differently from TF's kernels."""
    return tf.nest.map_structure(lambda t: None if t is None else np.round(np.asarray(t), 4), value)

x = tf.constant(np.linspace(-1, 1, 24, dtype=np.float32).reshape(1, 2, 3, 4))
print(tf.nn.crelu(tf.constant([[1.0, -2.0]])))
print(r(tf.nn.local_response_normalization(x, depth_radius=1, bias=1.0, alpha=0.5, beta=0.75)))
print(r(tf.nn.lrn(x)))
print(tf.nn.log_poisson_loss(tf.constant([0.0, 0.5, 2.0, 5.0]), tf.constant([0.1, -0.3, 0.7, 1.5])))
print(tf.nn.log_poisson_loss(tf.constant([0.0, 0.5, 2.0, 5.0]), tf.constant([0.1, -0.3, 0.7, 1.5]),
                             compute_full_loss=True))
m = tf.constant([[1.0, 2.0], [3.0, 5.0], [4.0, -1.0]])
print(tf.nn.sufficient_statistics(m, [0]))
print(tf.nn.sufficient_statistics(m, [0], shift=1.0, keepdims=True))
print(r(tf.nn.normalize_moments(*tf.nn.sufficient_statistics(m, [0]))))
print(r(tf.nn.normalize_moments(*tf.nn.sufficient_statistics(m, [0], shift=0.5))))
print(r(tf.nn.weighted_moments(m, [0], tf.constant([[1.0], [2.0], [0.5]]))))
print(r(tf.nn.weighted_moments(m, [1], tf.constant([[1.0, 3.0]]), keepdims=True)))
img = tf.reshape(tf.range(32), [1, 4, 4, 2])
print(tf.nn.space_to_depth(img, 2))
print(tf.nn.depth_to_space(tf.nn.space_to_depth(img, 2), 2)[0, :, :, 0])
print(tf.nn.depth_to_space(tf.reshape(tf.range(8), [1, 1, 1, 8]), 2))
print(tf.nn.top_k(tf.constant([1.0, 5.0, 3.0]), k=2))
print(tf.nn.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9], [0.8, 0.2]]), k=1))
print(tf.nn.zero_fraction(tf.constant([0.0, 1.0, 0.0, 2.0])))
v = tf.constant(np.arange(2 * 5 * 5 * 1, dtype=np.float32).reshape(2, 5, 5, 1))
f = tf.constant(np.ones((3, 3, 1, 2), np.float32))
print(tf.reduce_sum(tf.nn.atrous_conv2d(v, f, rate=2, padding="SAME"), axis=[1, 2]))
print(tf.nn.pool(v, [2, 2], "MAX", strides=[2, 2])[0, :, :, 0])
print(tf.nn.pool(v, [2, 2], "AVG", padding="SAME")[1, :2, :2, 0])
y = tf.constant(np.ones((1, 2, 2, 2), np.float32))
print(tf.nn.conv_transpose(y, tf.ones([2, 2, 3, 2]), [1, 4, 4, 3], strides=2)[0, :, :, 0])
print(r(tf.nn.batch_norm_with_global_normalization(m, tf.constant([1.0, 2.0]), tf.constant([4.0, 1.0]),
                                                   tf.constant([0.5, 0.5]), tf.constant([2.0, 3.0]), 0.001,
                                                   True)))
params = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
sp = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([0, 2, 1], tf.int64), [4, 2])
w = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1.0, 3.0, 2.0], [4, 2])
for c in ["sum", "mean", "sqrtn"]:
    print(c, tf.nn.embedding_lookup_sparse(params, sp, None, combiner=c))
    print(c, tf.nn.embedding_lookup_sparse(params, sp, w, combiner=c))
print(tf.nn.safe_embedding_lookup_sparse(params, sp, w))
print(tf.nn.safe_embedding_lookup_sparse(params, sp, None, combiner="sum", default_id=1))
invalid = tf.SparseTensor([[0, 0], [1, 0]], tf.constant([-1, 2], tf.int64), [2, 1])
print(tf.nn.safe_embedding_lookup_sparse(params, invalid, None))
pv = tf.Variable(params)
with tf.GradientTape() as tape:
    out = tf.reduce_sum(tf.nn.embedding_lookup_sparse(pv, sp, w, combiner="mean") ** 2)
print(tape.gradient(out, pv))
xv = tf.Variable(x)
with tf.GradientTape() as tape:
    out = tf.reduce_sum(tf.nn.lrn(xv, 2) * tf.nn.space_to_depth(tf.tile(xv, [1, 2, 2, 1]), 2)[:, :, :, :4])
print(r(tf.reduce_sum(tape.gradient(out, xv))))

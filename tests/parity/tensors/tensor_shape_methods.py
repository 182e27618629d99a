"""TensorShape: merging, concatenating, compatibility, rank checks, indexing and Dimension."""
import tensorflow as tf

a = tf.TensorShape([2, None, 3])
b = tf.TensorShape([None, 4, 3])
u = tf.TensorShape(None)
print(repr(u), u, a, repr(tf.TensorShape([])))
print(a.merge_with(b), a.merge_with(u), a.merge_with([2, 4, None]))
print(a.concatenate(b), repr(a.concatenate(u)), a + [1], [1] + a, (1,) + a)
print(a.is_compatible_with(b), a.is_compatible_with([3, 4, 3]), a.is_compatible_with(u))
s23 = tf.TensorShape([2, 3])
print(a.most_specific_compatible_shape(b), repr(s23.most_specific_compatible_shape([2, 4, 1])))
print(a.num_elements(), s23.num_elements(), u.num_elements(), tf.TensorShape([]).num_elements())
print(a.with_rank(3), u.with_rank(2), a.with_rank_at_least(2), repr(u.with_rank_at_least(4)))
print(a.is_fully_defined(), u.is_fully_defined(), a.rank, u.rank, a.ndims, u.ndims)
print(a.dims, u.dims)
print(a[0], a[1], a[1:], a[-2:], a[::2], u[0], repr(u[1:]))
print(tf.TensorShape([1, 2]) == [1, 2], tf.TensorShape([1, 2]) == (1, 2), u == tf.TensorShape(None))
print(bool(a), bool(tf.TensorShape([])), bool(u), len(a), list(a))
print(tf.compat.dimension_value(a[0]), tf.compat.dimension_value(a.dims[1]))
print(tf.compat.dimension_at_index(a, 0))
print(tf.compat.dimension_at_index(u, 3))
d = tf.compat.v1.Dimension(3)
print(d, repr(d), d + 1, 2 * d, d == 3, d + tf.compat.v1.Dimension(None))

checks = [("merge_with", lambda: a.merge_with([3, 4, 3])), ("with_rank", lambda: a.with_rank(2)),
          ("with_rank_at_least", lambda: a.with_rank_at_least(4)),
          ("with_rank_at_most", lambda: a.with_rank_at_most(2)),
          ("assert_is_compatible_with", lambda: a.assert_is_compatible_with([3, 4, 3])),
          ("assert_same_rank", lambda: a.assert_same_rank([1, 2])),
          ("assert_has_rank", lambda: a.assert_has_rank(2)),
          ("assert_is_fully_defined", lambda: a.assert_is_fully_defined()),
          ("as_list", lambda: u.as_list()), ("len", lambda: len(u)),
          ("negative", lambda: tf.TensorShape([-2])), ("float", lambda: tf.TensorShape([1.5])),
          ("dimension merge", lambda: d.merge_with(4))]
for name, fn in checks:
    try:
        fn()
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__)

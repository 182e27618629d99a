"""A tensor kept from a tf.function call (in a Python list) cannot be used after the call."""
import tensorflow as tf

leaked = []


@tf.function
def f(x):
    y = x * 2
    leaked.append(y)
    return y


print(f(tf.constant(1.0)))
kept = leaked[0]
print(kept.shape, kept.dtype)
v = tf.Variable(0.0)
for name, use in [("add", lambda: kept + 1), ("reduce_sum", lambda: tf.reduce_sum(kept)),
                  ("assign", lambda: v.assign(kept)),
                  ("other function", lambda: tf.function(lambda: leaked[0] + 1)())]:
    try:
        use()
        print(name, "ran")
    except Exception as e:
        print(name, type(e).__name__, isinstance(e, TypeError), isinstance(e, ValueError))
print(v.numpy())

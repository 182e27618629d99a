import tensorflow as tf

u = tf.Variable(tf.ones([2, 2]))
s = tf.Variable(1.0)
cases = [
    ("add scalar", lambda: u.assign_add(1.0)),
    ("sub row", lambda: u.assign_sub([1.0, 1.0])),
    ("assign scalar", lambda: u.assign(1.0)),
    ("assign row", lambda: u.assign([1.0, 2.0])),
    ("scalar add [1]", lambda: s.assign_add([1.0])),
    ("scalar assign [1]", lambda: s.assign([1.0])),
    ("same shape", lambda: u.assign_add(tf.ones([2, 2]))),
    ("len", lambda: len(u)),
    ("len tensor", lambda: len(tf.ones([3, 2]))),
    ("len scalar", lambda: len(tf.constant(1.0))),
]
for name, fn in cases:
    try:
        r = fn()
        print(name, "ok", r.shape if hasattr(r, "shape") else r)
    except Exception as e:
        print(name, type(e).__name__)
print(u.numpy().tolist(), s.numpy())
print([float(x) for x in tf.Variable([1.0, 2.0])])


@tf.function
def grow():
    return s.assign_add([1.0])


try:
    grow()
except ValueError as e:
    print("in function:", type(e).__name__)

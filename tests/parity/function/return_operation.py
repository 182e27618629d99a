import tensorflow as tf

v = tf.Variable(1.0)


class Box:
    pass


for name, body in [("write", lambda: v.assign(8.0, read_value=False)),
                   ("write in list", lambda: [v.assign_add(1.0, read_value=False)]),
                   ("group", lambda: tf.group()),
                   ("no_op", lambda: {"op": tf.no_op()}),
                   ("object", lambda: Box()),
                   ("values", lambda: {"a": 1, "b": "x", "c": None, "d": [1.5, 2]})]:
    try:
        print(name, tf.function(body)())
    except TypeError as e:
        print(name, "TypeError", "must return zero or more Tensors" in str(e), type(e).__name__)
print(v.numpy())

import tensorflow as tf


def c(value, dtype):
    return tf.cast(tf.constant(value), dtype)


cases = [("sqrt int", tf.sqrt, c(4, tf.int32)), ("tanh int", tf.tanh, c(1, tf.int32)),
         ("floor int", tf.floor, c(1, tf.int32)), ("square bool", tf.square, c(1, tf.bool)),
         ("exp int", tf.exp, c(1, tf.int32)), ("log bool", tf.math.log, c(1, tf.bool)),
         ("abs uint8", tf.abs, c(1, tf.uint8)), ("relu bool", tf.nn.relu, c(1, tf.bool)),
         ("round complex", tf.round, c(1, tf.complex64)),
         ("reciprocal int", tf.math.reciprocal, c(2, tf.int32))]
for name, fn, x in cases:
    for where, f in (("eager", fn), ("function", tf.function(fn))):
        try:
            f(x)
            print(name, where, "ok")
        except Exception as e:
            print(name, where, type(e).__name__)

import tensorflow as tf


def helper(x):
    if x.shape[0] > 100:
        return x
    raise ValueError("custom msg")


@tf.function
def calls_helper(x):
    y = x * 2
    return helper(y)


@tf.function
def makes_variable(x):
    v = tf.Variable(1.0)
    return v * x


def show(e):
    print(type(e).__name__)
    # (the comparer reads TF's "tf.Variable" as companion's name, so module prefixes are dropped)
    print(str(e).replace(__file__, "PROGRAM").replace("tf.", ""))


for call in (lambda: calls_helper(tf.constant([1])), lambda: makes_variable(tf.constant(2.0)),
             lambda: tf.data.Dataset.range(3).map(lambda x: helper(x)),
             lambda: tf.function(helper, autograph=False)(tf.constant([1])),
             lambda: helper(tf.constant([1]))):
    try:
        call()
    except Exception as e:
        show(e)

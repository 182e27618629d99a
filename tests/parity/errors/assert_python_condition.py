import tensorflow as tf

for condition in [False, tf.constant(False)]:
    try:
        tf.debugging.Assert(condition, ["hello", tf.constant([1, 2])])
    except tf.errors.InvalidArgumentError as e:
        print(type(e).__name__, str(e).split(". Summarized")[0])
try:
    tf.strings.substr(tf.constant(["Hello", ""]), 1, 3)
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
print(tf.strings.substr(tf.constant(["Hello", "TF"]), 1, 3))

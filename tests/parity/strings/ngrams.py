import tensorflow as tf

d = tf.constant(["a", "b", "c", "d"])
print(tf.strings.ngrams(d, 2))
print(tf.strings.ngrams(d, 3, separator="_"))
print(tf.strings.ngrams(d, 5))
print(tf.strings.ngrams(d, 5, preserve_short_sequences=True))
print(tf.strings.ngrams(d, [1, 2]))
print(tf.strings.ngrams(d, 2, pad_values="#"))
print(tf.strings.ngrams(d, 3, pad_values=("<s>", "</s>"), padding_width=1))
print(tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2))
print(tf.strings.ngrams(tf.strings.split(tf.constant(["the cat sat on", "a mat"])), [1, 2], separator="+"))
for bad in (lambda: tf.strings.ngrams(tf.constant("a"), 2), lambda: tf.strings.ngrams(d, 0),
            lambda: tf.strings.ngrams(tf.constant([1, 2]), 2)):
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__)


@tf.function
def bigrams():
    return tf.strings.ngrams(tf.constant(["x", "y", "z"]), 2)


print(bigrams())

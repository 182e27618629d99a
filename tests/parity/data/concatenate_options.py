"""concatenate and with_options."""
import tensorflow as tf

a = tf.data.Dataset.range(3)
b = tf.data.Dataset.range(10, 12)
print(list(a.concatenate(b).as_numpy_iterator()))
options = tf.data.Options()
options.deterministic = True
c = a.with_options(options)
print(list(c.as_numpy_iterator()))
print(c.options().deterministic)
